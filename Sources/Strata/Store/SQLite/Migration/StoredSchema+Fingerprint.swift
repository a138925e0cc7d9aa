extension StoredSchema {
    /// Rebuilds the description of a store written before the full description was recorded, from the table
    /// definitions of its fingerprint (the DDL that created its tables). Swift types and default values are unknown.
    init(fingerprint: SchemaFingerprint) {
        self.version = nil
        self.entities = fingerprint.entities.keys.sorted().map { name in
            StoredEntity(name: name, definition: fingerprint.entities[name] ?? "")
        }
    }
}

extension StoredEntity {
    /// Parses the DDL `TableDefinition` wrote for entity `name`.
    init(name: String, definition: String) {
        self.name = name
        self.definition = definition
        let statements = definition.components(separatedBy: "; ")
        let quotedName = SQLiteDialect().quote(identifier: name)
        var columns: [StoredColumn] = []
        var unique: [[String]] = []
        if let create = statements.first, create.hasPrefix("CREATE TABLE \(quotedName) ("), create.hasSuffix(")") {
            let body = create.dropFirst("CREATE TABLE \(quotedName) (".count).dropLast()
            for part in Self.topLevelParts(of: String(body)) {
                if part.hasPrefix("UNIQUE (") {
                    unique.append(Self.quotedIdentifiers(in: part))
                } else if let column = StoredColumn(definition: part), column.name != StoreLayout.primaryKeyColumn,
                    column.name != StoreLayout.versionColumn
                {
                    columns.append(column)
                }
            }
        }
        self.columns = columns
        self.uniquenessConstraints = unique
        self.indexStatements = statements.filter { $0.hasPrefix("CREATE INDEX") && $0.contains(" ON \(quotedName) (") }
        var joinTables: [StoredJoinTable] = []
        for (offset, statement) in statements.enumerated().dropFirst() where statement.hasPrefix("CREATE TABLE ") {
            let identifiers = Self.quotedIdentifiers(in: statement)
            guard identifiers.count >= 6 else { continue }
            // CREATE TABLE "table" ("owner" … REFERENCES "A" ("Z_PK") …, "target" … REFERENCES "B" ("Z_PK") …
            let (table, owner, target, destination) = (identifiers[0], identifiers[1], identifiers[4], identifiers[5])
            let index =
                offset + 1 < statements.count && statements[offset + 1].hasPrefix("CREATE INDEX")
                ? statements[offset + 1] : nil
            let sides: (String, String)
            if owner == StoreLayout.firstColumn, let separator = table.range(of: "__") {
                sides = (
                    String(table[table.index(table.startIndex, offsetBy: 2)..<separator.lowerBound]),
                    String(table[separator.upperBound...])
                )
            } else {
                sides = (String(table.dropFirst(2)), destination)
            }
            joinTables.append(
                StoredJoinTable(
                    name: table, ownerColumn: owner, targetColumn: target, ownerSide: sides.0, targetSide: sides.1,
                    definition: ([statement] + (index.map { [$0] } ?? [])).joined(separator: "; ")))
        }
        self.joinTables = joinTables
    }

    /// Splits `text` at the commas outside parentheses and quotes.
    static func topLevelParts(of text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        var inQuotes = false
        for character in text {
            switch character {
            case "\"": inQuotes.toggle()
            case "(" where !inQuotes: depth += 1
            case ")" where !inQuotes: depth -= 1
            case "," where !inQuotes && depth == 0:
                parts.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        if !current.isEmpty { parts.append(current.trimmingCharacters(in: .whitespaces)) }
        return parts
    }
}

extension StoredColumn {
    /// Parses a column definition `TableDefinition` wrote: `"title" TEXT NOT NULL`, `"author" INTEGER REFERENCES …`.
    init?(definition: String) {
        guard let name = StoredEntity.quotedIdentifiers(in: definition).first else { return nil }
        let rest = definition.dropFirst(SQLiteDialect().quote(identifier: name).count).trimmingCharacters(
            in: .whitespaces)
        self.name = name
        self.definition = definition
        self.valueType = nil
        self.defaultValue = nil
        if rest.contains("REFERENCES") {
            self.storage = nil
            self.isOptional = true
            self.destination = StoredEntity.quotedIdentifiers(in: rest).first
            return
        }
        self.destination = nil
        self.isOptional = !rest.hasSuffix("NOT NULL")
        let type =
            rest.hasSuffix("NOT NULL")
            ? String(rest.dropLast("NOT NULL".count)).trimmingCharacters(in: .whitespaces) : rest
        switch type {
        case "INTEGER": self.storage = "\(StorageClass.integer)"
        case "": self.storage = "\(StorageClass.unsignedInteger)"
        case "REAL": self.storage = "\(StorageClass.real)"
        case "TEXT COLLATE STRATA_DECIMAL": self.storage = "\(StorageClass.decimal)"
        case "TEXT": self.storage = "\(StorageClass.text)"
        case "BLOB": self.storage = "\(StorageClass.blob)"
        default: self.storage = type
        }
    }
}
