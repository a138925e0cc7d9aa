/// One model a save could not write as is: another context or process saved its row after this context read it
/// (Core Data's `NSMergeConflict`). Reported by `StrataError.mergeConflict` under `mergePolicy = .error`.
public struct MergeConflict: Sendable, Hashable, CustomStringConvertible {
    /// The model's entity.
    public let entityName: String
    /// The model in conflict.
    public let persistentModelID: PersistentIdentifier
    /// Whether this save deleted the model (otherwise it changed it).
    public let isDeletion: Bool
    /// The properties this save changed that the other writer changed too: their stored values differ from the
    /// values this context read. Empty when the other writer changed only other properties.
    public let conflictingProperties: [String]
    /// The row's stored values (described), by property name; empty when the row was deleted meanwhile.
    public let storedValues: [String: String]
    /// The row's version when this context read it (Core Data's `oldVersionNumber`).
    public let expectedVersion: Int64
    /// The row's stored version, `nil` when the row was deleted meanwhile (Core Data's `newVersionNumber`).
    public let storedVersion: Int64?

    package init(
        entityName: String, persistentModelID: PersistentIdentifier, isDeletion: Bool, conflictingProperties: [String],
        storedValues: [String: String], expectedVersion: Int64, storedVersion: Int64?
    ) {
        self.entityName = entityName
        self.persistentModelID = persistentModelID
        self.isDeletion = isDeletion
        self.conflictingProperties = conflictingProperties
        self.storedValues = storedValues
        self.expectedVersion = expectedVersion
        self.storedVersion = storedVersion
    }

    /// The model, what this save did to it, and what is stored now.
    public var description: String {
        let key = persistentModelID.primaryKey.map { " \($0)" } ?? ""
        let action = isDeletion ? "deleted" : "changed"
        guard let storedVersion else { return "\(entityName)\(key) was \(action) here but deleted elsewhere" }
        let both =
            conflictingProperties.isEmpty ? "" : ", both changed " + conflictingProperties.joined(separator: ", ")
        let stored = conflictingProperties.compactMap { name in storedValues[name].map { "\(name) = \($0)" } }
        return
            "\(entityName)\(key) was \(action) here at version \(expectedVersion) and saved elsewhere at version \(storedVersion)"
            + both + (stored.isEmpty ? "" : " (stored: " + stored.joined(separator: ", ") + ")")
    }
}
