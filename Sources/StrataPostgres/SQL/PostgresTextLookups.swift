import Foundation
import Strata

/// Answers Swift computed for the text values one query reads, handed to PostgreSQL as `jsonb` parameters: what
/// SQL can't compute exactly (Foundation's grapheme-aware folding, search and localized order) is looked up per
/// row instead (`$n -> key`, a binary search in the object's sorted keys).
///
/// - A call's table maps its varying arguments' text to the answer `StrataText` gives (the same functions SQLite
///   calls), one nesting level per varying argument: `{"Café": true}`, `{"a": {"b": -1}}`. A call whose
///   arguments are all constants is answered outright.
/// - A ranked collation's table maps each text to its rank in Foundation's order under that collation (texts the
///   collation finds equal share a rank), so comparisons and sorts compare ranks.
///
/// Built by ``init(_:writer:query:)`` from one pre-pass over the values the query's leaves read.
struct PostgresTextLookups: Sendable {
    /// How a call is answered.
    enum Answer: Sendable, Equatable {
        /// The answer of a call whose arguments are all constants.
        case constant(StoredValue)
        /// A `jsonb` object of answers keyed by the call's varying arguments.
        case table(String)
    }

    /// The type of a call's answer as SQL spells it.
    enum ResultType {
        case boolean, integer, text

        init(_ function: QueryFunction) {
            switch function {
            case .compare, .characterCount: self = .integer
            case .fold: self = .text
            default: self = .boolean
            }
        }

        /// The SQL type name.
        var sqlName: String {
            switch self {
            case .boolean: "boolean"
            case .integer: "bigint"
            case .text: "text"
            }
        }
    }

    /// A ranked collation's ranks.
    struct Ranks: Sendable, Equatable {
        /// A `jsonb` object mapping each text to its rank.
        var table: String
        /// The rank of every text the table leaves out, for a table of the first values only; `nil` when the table
        /// holds every text (and a text it lacks changed after the pre-pass).
        var others: Int?
    }

    var calls: [QueryExpression: Answer] = [:]
    var ranks: [QueryOrdering.Collation: Ranks] = [:]

    /// A call's answer for given argument values, computed as SQLite's functions and the in-memory evaluator do.
    ///
    /// - Throws: `StrataError.storeFailure` where SQLite fails the statement (an invalid `MATCHES` expression).
    static func answer(_ call: PostgresTextLeaves.Call, _ arguments: [QueryExpression]) throws -> StoredValue {
        let evaluator = QueryEvaluator(entity: call.entity, values: { _ in .null })
        return try evaluator.evaluate(.function(call.function, arguments))
    }

    /// A nested JSON object of `entries`, keyed by their keys from `depth` on (entries whose key has the same
    /// bytes merge). At the last key a repeated key is written again: `jsonb` keeps one, and the same text always
    /// has the same answer.
    static func object(_ entries: ArraySlice<(keys: [String], value: String)>, depth: Int) -> String {
        var json = "{"
        guard let first = entries.first, depth + 1 < first.keys.count else {
            json.reserveCapacity(entries.reduce(2) { $0 + $1.keys[depth].utf8.count + $1.value.utf8.count + 4 })
            for entry in entries {
                if json.utf8.count > 1 { json += "," }
                appendString(entry.keys[depth], to: &json)
                json += ":"
                json += entry.value
            }
            return json + "}"
        }
        let grouped = Dictionary(grouping: entries, by: { Array($0.keys[depth].utf8) })
        for (key, members) in grouped {
            if json.utf8.count > 1 { json += "," }
            appendString(String(decoding: key, as: UTF8.self), to: &json)
            json += ":" + object(members[...], depth: depth + 1)
        }
        return json + "}"
    }

    /// A value as JSON: numbers and Booleans as they are, text as a string, `null` for NULL.
    static func json(_ value: StoredValue, as type: ResultType) -> String {
        switch (value, type) {
        case (.null, _): "null"
        case (.integer(let number), .boolean): number != 0 ? "true" : "false"
        case (.integer(let number), _): String(number)
        case (.text(let text), _): string(text)
        case (.real(let number), _): String(number)
        case (.blob(let bytes), _): string(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// A JSON string literal: quotes and backslashes escaped by a backslash, control characters as `\u00XX`.
    static func string(_ text: String) -> String {
        var json = ""
        appendString(text, to: &json)
        return json
    }

    /// Appends `text` to `json` as a JSON string literal.
    static func appendString(_ text: String, to json: inout String) {
        json += "\""
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            json += text + "\""
            return
        }
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" {
                json += "\\"
            } else if scalar.value < 0x20 {
                json += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                continue
            }
            json.unicodeScalars.append(scalar)
        }
        json += "\""
    }

    /// The string ordering a ranked collation compares with.
    static func ordering(of collation: QueryOrdering.Collation) -> StrataStringOrdering {
        switch collation {
        case .localizedStandard: .localizedStandard
        case .localized: .localized
        case .caseInsensitive: .caseInsensitive
        case .binary: .lexical
        case .swift: .swift
        }
    }
}
