import CLibPQ

/// Parameters bound for one libpq call: their count, type OIDs (0 lets the server infer the type), values, byte
/// lengths and formats (0 text, 1 binary). Valid only inside ``PostgresConnection/withBindings(_:_:)``.
struct PostgresBindings {
    let count: Int32
    let types: [Oid]
    let values: UnsafePointer<UnsafePointer<CChar>?>?
    let lengths: [Int32]
    let formats: [Int32]
}

/// The statements one connection has prepared, keyed by SQL text and parameter types, at most ``limit`` of them:
/// preparing one more forgets the least recently used, whose name the connection then deallocates.
struct PostgresPreparedStatements {
    /// What identifies a prepared statement: the same SQL bound with other types (an integer where a NULL was) is
    /// planned for those types, so it is another statement.
    struct Key: Hashable {
        let sql: String
        let types: [Oid]
    }

    /// How many statements stay prepared.
    var limit = 128
    private var entries: [Key: (name: String, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0
    private var nextNumber = 0
    /// Names forgotten while they could not be deallocated (the transaction had failed), deallocated later.
    private(set) var forgottenNames: [String] = []

    /// How many statements are prepared.
    var count: Int { entries.count }

    /// The name `key` was prepared under, marked as just used; `nil` when it isn't prepared.
    mutating func name(for key: Key) -> String? {
        // One hash of the key (its SQL text is long): the entry is found once and marked in place.
        guard let index = entries.index(forKey: key) else { return nil }
        clock += 1
        entries.values[index].lastUse = clock
        return entries.values[index].name
    }

    /// A name no statement of this connection has had.
    mutating func newName() -> String {
        nextNumber += 1
        return "strata_\(nextNumber)"
    }

    /// Records `key` as prepared under `name`.
    /// - Returns: the names of the statements forgotten to stay within ``limit``.
    mutating func insert(_ key: Key, name: String) -> [String] {
        clock += 1
        entries[key] = (name, clock)
        var evicted: [String] = []
        while entries.count > max(1, limit), let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries[oldest.key] = nil
            evicted.append(oldest.value.name)
        }
        return evicted
    }

    /// Forgets `key`; its name is kept in ``forgottenNames`` until ``takeForgottenNames()``.
    mutating func forget(_ key: Key) {
        if let name = entries.removeValue(forKey: key)?.name { forgottenNames.append(name) }
    }

    /// Forgets `key`, prepared under `name` by a message the server did not carry out (it failed, or a pipeline
    /// skipped it): nothing is left to deallocate, so the name is dropped wherever it is kept.
    mutating func discard(_ key: Key, name: String) {
        if entries[key]?.name == name { entries[key] = nil }
        forgottenNames.removeAll { $0 == name }
    }

    /// Keeps `names` (statements already forgotten, such as those ``insert(_:name:)`` evicted) in
    /// ``forgottenNames`` until ``takeForgottenNames()``.
    mutating func noteForgotten(_ names: [String]) {
        forgottenNames += names
    }

    /// The names forgotten so far, handed over once.
    mutating func takeForgottenNames() -> [String] {
        defer { forgottenNames = [] }
        return forgottenNames
    }
}
