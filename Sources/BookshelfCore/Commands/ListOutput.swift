import Foundation
import Strata

/// `list` and `add` output: one plain line per record, or a JSON array / object with `--json`.
enum ListOutput {
    /// `records` as text.
    static func render<Row: Record>(_ records: [Row], json: Bool) -> String {
        json ? encode(records) : records.map(\.plainLine).joined(separator: "\n")
    }

    /// One added record as text.
    static func renderAdded<Row: Record>(_ record: Row, json: Bool) -> String {
        json ? encode(record) : "added: \(record.plainLine)"
    }

    private static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(value) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }
}
