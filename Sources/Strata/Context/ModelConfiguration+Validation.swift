extension ModelConfiguration {
    /// The longest file name Linux file systems take, in bytes (`NAME_MAX`).
    private static let longestFileName = 255

    /// Checks that the configuration names a store file that can exist: a name without `/` or NUL, and a file name
    /// (with the `-wal` / `-shm` suffixes SQLite adds) the file system accepts. A container calls it before opening
    /// the store.
    ///
    /// - Throws: `StrataError.invalidConfiguration` of kind `.configurationFileNameContainsInvalidCharacters` or
    ///   `.configurationFileNameTooLong`.
    public func validate() throws {
        try throwingSwiftDataErrors {
            if name.contains("/") || name.contains("\0") {
                throw StrataError.invalidConfiguration(
                    name: name, kind: .configurationFileNameContainsInvalidCharacters,
                    reason: "its name holds '/' or a NUL character, which a store's file name can't")
            }
            guard !isStoredInMemoryOnly else { return }
            let fileName = url.lastPathComponent
            if fileName.utf8.count + "-wal".utf8.count > Self.longestFileName {
                throw StrataError.invalidConfiguration(
                    name: name, kind: .configurationFileNameTooLong,
                    reason:
                        "the store file name \(fileName.elided()) is \(fileName.utf8.count) bytes; with SQLite's -wal suffix "
                        + "it must fit in \(Self.longestFileName)")
            }
        }
    }
}
