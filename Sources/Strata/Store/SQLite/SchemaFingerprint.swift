import Foundation

/// A canonical description of the tables a schema needs, recorded in the store so a later open can tell whether
/// the models changed.
struct SchemaFingerprint: Equatable {
    /// One line per entity: its table definition.
    var entities: [String: String]

    init(entities: [String: String]) { self.entities = entities }

    init(schema: Schema, dialect: SQLiteDialect) {
        var entities: [String: String] = [:]
        for entity in schema.entities where entity.parentEntity == nil {
            entities[entity.name] = SQLiteTableLayout(dialect: dialect).definition(of: entity)
        }
        self.entities = entities
    }

    var encoded: String {
        let data = (try? JSONSerialization.data(withJSONObject: entities, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func decode(_ text: String) -> SchemaFingerprint {
        let object = try? JSONSerialization.jsonObject(with: Data(text.utf8))
        return SchemaFingerprint(entities: object as? [String: String] ?? [:])
    }
}
