import Foundation

/// The full description of the schema a store holds, recorded in its metadata (key `model`) so a later open can
/// work out what changed: each entity's columns (storage, Swift type, optionality, default), constraints,
/// indexes and join tables, and the schema's version when a versioned schema wrote it.
package struct StoredSchema: Codable, Equatable {
    /// The version identifier of the `VersionedSchema` the store was last written with, if any.
    package var version: Schema.Version?
    /// The entities, sorted by name.
    package var entities: [StoredEntity]
    /// The layout version of the persistent-history tables (`HistoryTables.version`); `nil` for a store written
    /// before history was recorded, which the next writable open migrates.
    package var history: Int?

    /// The entity named `name`, if the store has it.
    package func entity(named name: String) -> StoredEntity? {
        entities.first { $0.name == name }
    }

    /// The description as JSON (sorted keys), as the metadata records it.
    package var encoded: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The description recorded as `text`; `nil` when it isn't one.
    package static func decode(_ text: String) -> StoredSchema? {
        try? JSONDecoder().decode(StoredSchema.self, from: Data(text.utf8))
    }
}

/// One entity's table as recorded in the store.
package struct StoredEntity: Codable, Equatable {
    /// The entity's (and its table's) name.
    package var name: String
    /// The table's columns other than the primary key.
    package var columns: [StoredColumn]
    /// Column names unique together, one array per constraint.
    package var uniquenessConstraints: [[String]]
    /// The `CREATE INDEX` statements of the table (`#Index` and foreign-key indexes).
    package var indexStatements: [String]
    /// The join tables this entity creates.
    package var joinTables: [StoredJoinTable]
    /// The table's DDL as `TableDefinition` writes it (the pre-migration fingerprint line).
    package var definition: String

    /// The column named `name`, if the table has it.
    package func column(named name: String) -> StoredColumn? {
        columns.first { $0.name == name }
    }

    /// Whether the table has the row-version column (`Z_OPT`); tables written before optimistic locking existed
    /// get it from a migration.
    package var hasVersionColumn: Bool {
        definition.contains("\"\(StoreLayout.versionColumn)\" ")
    }

    /// Whether the table needs no change to hold `target`: the same DDL, and no column whose recorded Swift type
    /// (when both sides know it) or shape differs. Default values don't count: they only matter when a column is added.
    package func matches(_ target: StoredEntity) -> Bool {
        guard definition == target.definition, columns.count == target.columns.count else { return false }
        return zip(columns, target.columns).allSatisfy { $0.matches($1) }
    }
}

/// One column of an entity's table: an attribute, or a to-one relationship's foreign key.
package struct StoredColumn: Codable, Equatable {
    /// The column's (the property's) name.
    package var name: String
    /// The attribute's storage class (`integer`, `text`, …); `nil` for a foreign key.
    package var storage: String?
    /// The attribute's Swift type (`Int32`, `String`, …); `nil` for a foreign key or when unknown (a store written
    /// before the full description was recorded).
    package var valueType: String?
    /// Whether the column may hold NULL.
    package var isOptional: Bool
    /// The declared initial value, as stored.
    package var defaultValue: StoredDefault?
    /// The destination entity of a foreign key.
    package var destination: String?
    /// The column's definition in `CREATE TABLE`.
    package var definition: String

    /// A description of the column's shape for errors: `String`, `Int?`, `to-one Author`.
    package var shape: String {
        if let destination { return "to-one \(destination)" }
        return (valueType ?? storage ?? "?") + (isOptional ? "?" : "")
    }

    /// Whether `other` is the same column: name, storage, optionality, destination and definition (and the Swift type, when both know it).
    package func matches(_ other: StoredColumn) -> Bool {
        name == other.name && storage == other.storage && isOptional == other.isOptional
            && destination == other.destination && definition == other.definition
            && (valueType == nil || other.valueType == nil || valueType == other.valueType)
    }
}

/// A join table of a to-many relationship, with the relationship each column stands for.
package struct StoredJoinTable: Codable, Equatable {
    /// The table's name.
    package var name: String
    /// The column holding the owner's key.
    package var ownerColumn: String
    /// The column holding the target's key.
    package var targetColumn: String
    /// `Entity_property` of the relationship whose owner key `ownerColumn` holds.
    package var ownerSide: String
    /// `Entity_property` of the inverse, or the destination entity's name for an inverse-less to-many.
    package var targetSide: String
    /// The `CREATE TABLE` and `CREATE INDEX` statements.
    package var definition: String

    /// A join table's description.
    package init(
        name: String, ownerColumn: String, targetColumn: String, ownerSide: String, targetSide: String,
        definition: String
    ) {
        self.name = name
        self.ownerColumn = ownerColumn
        self.targetColumn = targetColumn
        self.ownerSide = ownerSide
        self.targetSide = targetSide
        self.definition = definition
    }
}

/// A `StoredValue` that can be written as JSON.
package enum StoredDefault: Codable, Equatable {
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

    /// The default as a stored value.
    package var value: StoredValue {
        switch self {
        case .integer(let integer): .integer(integer)
        case .real(let real): .real(real)
        case .text(let text): .text(text)
        case .blob(let bytes): .blob(bytes)
        }
    }
}

extension StoredEntity {
    /// The double-quoted identifiers in `text`, unescaped, in order.
    package static func quotedIdentifiers(in text: String) -> [String] {
        var identifiers: [String] = []
        var current: String?
        var previousWasQuote = false
        for character in text {
            if character == "\"" {
                if var open = current {
                    if previousWasQuote {
                        open.append("\"")
                        current = open
                        previousWasQuote = false
                        continue
                    }
                    previousWasQuote = true
                    continue
                }
                current = ""
                continue
            }
            if previousWasQuote, let open = current {
                identifiers.append(open)
                current = nil
                previousWasQuote = false
            }
            if current != nil { current?.append(character) }
        }
        if previousWasQuote, let open = current { identifiers.append(open) }
        return identifiers
    }
}
