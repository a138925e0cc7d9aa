import Foundation

extension PersistentIdentifier {
    /// The identifier of a model in a custom ``DataStore``: the store's identifier, the model's entity and the
    /// store's own primary key for it (a `UUID`, a `String`, an integer…). Two identifiers are equal when their
    /// store, entity and encoded key are; the identifier encodes and decodes with its key.
    ///
    /// ```swift
    /// let permanent = try PersistentIdentifier.identifier(for: identifier, entityName: snapshot.persistentIdentifier.entityName, primaryKey: UUID())
    /// ```
    ///
    /// - Throws: `StrataError.invalidConfiguration` when the key can't be encoded as JSON.
    public static func identifier<T>(
        for storeIdentifier: String, entityName: String, primaryKey: T
    ) throws -> PersistentIdentifier
    where T: Comparable, T: CustomStringConvertible, T: Codable, T: Hashable {
        try throwingSwiftDataErrors {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data: Data
            do {
                data = try encoder.encode(primaryKey)
            } catch {
                throw StrataError.invalidConfiguration(
                    name: storeIdentifier, kind: .loadIssueModelContainer,
                    reason:
                        "the primary key \(primaryKey) of a \(entityName) can't be encoded: \(error.localizedDescription)"
                )
            }
            return PersistentIdentifier(
                entityName: entityName, storeIdentifier: storeIdentifier,
                key: .custom(String(decoding: data, as: UTF8.self)))
        }
    }
}
