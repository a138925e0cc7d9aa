/// One step of a planned migration: SQL to run, or a check of the stored data that must pass first.
enum MigrationAction: Equatable {
    case sql(String)
    case check(MigrationCheck)
}

/// A condition the stored data must meet for a planned change to be lossless, checked inside the migration's
/// transaction (after any custom stage's `willMigrate` had its chance to fix the data).
struct MigrationCheck: Equatable {
    enum Condition: Equatable {
        /// The table has no rows (a non-optional attribute without a default is added).
        case noRows
        /// The expression is never NULL (an optional attribute without a default becomes non-optional).
        case noNulls(String)
        /// No two rows share the expressions' values (a uniqueness constraint is added).
        case noDuplicates([String])
    }

    let entity: String
    let properties: [String]
    let condition: Condition
    /// Why the data must meet the condition, and which stage fixes it.
    let reason: String

    /// The query returning a row that breaks the condition.
    func query(dialect: SQLiteDialect) -> String {
        let table = dialect.quote(identifier: entity)
        switch condition {
        case .noRows:
            return "SELECT 1 FROM \(table) LIMIT 1"
        case .noNulls(let expression):
            return "SELECT 1 FROM \(table) WHERE \(expression) IS NULL LIMIT 1"
        case .noDuplicates(let expressions):
            let columns = expressions.joined(separator: ", ")
            let present = expressions.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
            return "SELECT \(columns), count(*) FROM \(table) WHERE \(present) GROUP BY \(columns) HAVING count(*) > 1 LIMIT 1"
        }
    }

    /// Throws `migrationRefused` when a stored row breaks the condition.
    func run(on connection: SQLiteConnection, path: String, dialect: SQLiteDialect) throws {
        let rows = try translatingErrors("check \(entity) before migrating") { try connection.query(query(dialect: dialect), []) }
        guard let row = rows.first else { return }
        var detail = reason
        if case .noDuplicates = condition {
            let values = row.dropLast().map(Self.describe).joined(separator: ", ")
            let count: Int64 = row.last.flatMap { if case .integer(let count) = $0 { count } else { nil } } ?? 2
            detail += " (\(count) rows hold \(values))"
        }
        throw StrataError.migrationRefused(
            path: path, entity: entity, property: properties.joined(separator: ", "), reason: detail)
    }

    private static func describe(_ value: StoredValue) -> String {
        switch value {
        case .null: "nil"
        case .integer(let integer): "\(integer)"
        case .real(let real): "\(real)"
        case .text(let text): "\"\(text)\""
        case .blob(let bytes): "\(bytes.count) bytes"
        }
    }
}

extension StoredValue {
    /// The value as an SQL literal, for `DEFAULT` clauses and copy expressions of a migration (DDL takes no bindings).
    var sqlLiteral: String {
        switch self {
        case .null: return "NULL"
        case .integer(let integer): return "\(integer)"
        case .real(let real):
            if real.isNaN { return "'NaN'" }
            if real.isInfinite { return real < 0 ? "-1e999" : "1e999" }
            return "\(real)"
        case .text(let text): return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let bytes):
            let digits = Array("0123456789ABCDEF")
            return "X'" + String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }) + "'"
        }
    }
}
