extension StoredSchema {
    /// The `strata_metadata` key under which a store records the schema it holds (``encoded()``).
    package static let metadataKey = "model"

    /// Reads the recorded schema's encoding: one row, or none in a store that has not recorded one.
    package static let selectRecorded: SQLFragment =
        "SELECT value FROM \(identifier: StoreLayout.metadataTable) WHERE key = \(bind: .text(metadataKey))"
}
