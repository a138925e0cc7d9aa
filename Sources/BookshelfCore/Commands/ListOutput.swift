import Foundation
import Strata

/// `list` and `add` output: one plain line per record, or a JSON array / object with `--json`.
enum ListOutput {
    /// `records` as text: one line each, or with `json` an array of objects (`[]` when there are none).
    ///
    /// - Throws: `EncodingError` when a record can't be written as JSON.
    static func render<Row: Record>(_ records: [Row], json: Bool) throws -> String {
        json ? try encode(records) : records.map(\.plainLine).joined(separator: "\n")
    }

    /// One added record as text: `added: ` and its line, or with `json` one object.
    ///
    /// - Throws: `EncodingError` when the record can't be written as JSON.
    static func renderAdded<Row: Record>(_ record: Row, json: Bool) throws -> String {
        json ? try encode(record) : "added: \(record.plainLine)"
    }

    /// `value` as indented JSON with sorted keys and ISO 8601 dates.
    ///
    /// An empty array or object is written `[]` / `{}`: Foundation's pretty printer on Linux puts a blank line
    /// between the brackets. (A JSON string holds no raw line break, so only whitespace between brackets matches.)
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        return text.replacing(/\[\s*\n\s*\]/, with: "[]").replacing(/\{\s*\n\s*\}/, with: "{}")
    }
}
