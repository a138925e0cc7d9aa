import Foundation

/// The full description of the schema a store holds, recorded in its metadata (key `model`) so a later open can
/// work out what changed: each entity's columns (storage, Swift type, optionality, default), constraints,
/// indexes and join tables, and the schema's version when a versioned schema wrote it.
struct StoredSchema: Codable, Equatable {
    /// The version identifier of the `VersionedSchema` the store was last written with, if any.
    var version: Schema.Version?
    /// The entities, sorted by name.
    var entities: [StoredEntity]
    /// The layout version of the persistent-history tables (`HistoryTables.version`); `nil` for a store written
    /// before history was recorded, which the next writable open migrates.
    var history: Int?

    func entity(named name: String) -> StoredEntity? {
        entities.first { $0.name == name }
    }

    var encoded: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    static func decode(_ text: String) -> StoredSchema? {
        try? JSONDecoder().decode(StoredSchema.self, from: Data(text.utf8))
    }
}

/// One entity's table as recorded in the store.
struct StoredEntity: Codable, Equatable {
    var name: String
    /// The table's columns other than the primary key.
    var columns: [StoredColumn]
    /// Column names unique together, one array per constraint.
    var uniquenessConstraints: [[String]]
    /// The `CREATE INDEX` statements of the table (`#Index` and foreign-key indexes).
    var indexStatements: [String]
    /// The join tables this entity creates.
    var joinTables: [StoredJoinTable]
    /// The table's DDL as `TableDefinition` writes it (the pre-migration fingerprint line).
    var definition: String

    func column(named name: String) -> StoredColumn? {
        columns.first { $0.name == name }
    }

    /// Whether the table has the row-version column (`Z_OPT`); tables written before optimistic locking existed
    /// get it from a migration.
    var hasVersionColumn: Bool {
        definition.contains(TableDefinition.versionColumnDefinition)
    }

    /// Whether the table needs no change to hold `target`: the same DDL, and no column whose recorded Swift type
    /// (when both sides know it) or shape differs. Default values don't count: they only matter when a column is added.
    func matches(_ target: StoredEntity) -> Bool {
        guard definition == target.definition, columns.count == target.columns.count else { return false }
        return zip(columns, target.columns).allSatisfy { $0.matches($1) }
    }
}

/// One column of an entity's table: an attribute, or a to-one relationship's foreign key.
struct StoredColumn: Codable, Equatable {
    var name: String
    /// The attribute's storage class (`integer`, `text`, …); `nil` for a foreign key.
    var storage: String?
    /// The attribute's Swift type (`Int32`, `String`, …); `nil` for a foreign key or when unknown (a store written
    /// before the full description was recorded).
    var valueType: String?
    var isOptional: Bool
    /// The declared initial value, as stored.
    var defaultValue: StoredDefault?
    /// The destination entity of a foreign key.
    var destination: String?
    /// The column's definition in `CREATE TABLE`.
    var definition: String

    /// A description of the column's shape for errors: `String`, `Int?`, `to-one Author`.
    var shape: String {
        if let destination { return "to-one \(destination)" }
        return (valueType ?? storage ?? "?") + (isOptional ? "?" : "")
    }

    func matches(_ other: StoredColumn) -> Bool {
        name == other.name && storage == other.storage && isOptional == other.isOptional
            && destination == other.destination && definition == other.definition
            && (valueType == nil || other.valueType == nil || valueType == other.valueType)
    }
}

/// A join table of a to-many relationship, with the relationship each column stands for.
struct StoredJoinTable: Codable, Equatable {
    var name: String
    var ownerColumn: String
    var targetColumn: String
    /// `Entity_property` of the relationship whose owner key `ownerColumn` holds.
    var ownerSide: String
    /// `Entity_property` of the inverse, or the destination entity's name for an inverse-less to-many.
    var targetSide: String
    /// The `CREATE TABLE` and `CREATE INDEX` statements.
    var definition: String
}

/// A `StoredValue` that can be written as JSON.
enum StoredDefault: Codable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    init?(_ value: StoredValue?) {
        switch value {
        case .integer(let integer)?: self = .integer(integer)
        case .real(let real)?: self = .real(real)
        case .text(let text)?: self = .text(text)
        case .blob(let bytes)?: self = .blob(bytes)
        case .null?, nil: return nil
        }
    }

    var value: StoredValue {
        switch self {
        case .integer(let integer): .integer(integer)
        case .real(let real): .real(real)
        case .text(let text): .text(text)
        case .blob(let bytes): .blob(bytes)
        }
    }
}
