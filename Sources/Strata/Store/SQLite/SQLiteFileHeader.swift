/// The 100-byte header at the start of every SQLite database file, checked field by field before SQLite sees the
/// file (the layout is SQLite's file format, section 1.3).
///
/// These checks cost the same whatever the file's size: they catch a foreign file, a header overwritten by
/// other bytes, and a file cut short, which SQLite itself would only notice when a read reaches a missing page.
struct SQLiteFileHeader {
    /// The 16 bytes every SQLite database file starts with: "SQLite format 3" and a NUL.
    static let magic = Array("SQLite format 3\0".utf8)
    /// How many bytes the header takes.
    static let length = 100

    /// The size of a page in bytes.
    let pageSize: Int
    /// How many pages the header says the file holds, or `nil` when that field is stale (written by a version of
    /// SQLite that didn't keep it, so SQLite sizes the database from the file instead).
    let pageCount: Int?

    /// Reads and checks the header's fields.
    ///
    /// - Throws: ``SQLiteError/notADatabase(_:)`` when the file doesn't start with SQLite's magic string,
    ///   ``SQLiteError/corrupt(_:detail:)`` when the header is cut short or one of its fields holds a value
    ///   SQLite never writes.
    init(_ bytes: [UInt8], path: String) throws(SQLiteError) {
        guard bytes.count >= Self.magic.count, bytes.prefix(Self.magic.count).elementsEqual(Self.magic) else {
            throw .notADatabase(path)
        }
        guard bytes.count >= Self.length else {
            throw .corrupt(
                path, detail: "the file ends inside its \(Self.length)-byte header, after \(bytes.count) bytes")
        }
        func integer(at offset: Int, width: Int) -> Int {
            bytes[offset..<offset + width].reduce(0) { $0 << 8 | Int($1) }
        }
        let storedPageSize = integer(at: 16, width: 2)
        // 1 stands for 65,536, which doesn't fit the field.
        let pageSize = storedPageSize == 1 ? 65_536 : storedPageSize
        guard pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else {
            throw .corrupt(path, detail: "its header gives a page size of \(storedPageSize)")
        }
        let problems: [(Bool, String)] = [
            (
                (1...2).contains(bytes[18]) && (1...2).contains(bytes[19]),
                "its header's file format versions are \(bytes[18]) and \(bytes[19])"
            ),
            (pageSize - Int(bytes[20]) >= 480, "its header reserves \(bytes[20]) bytes of each \(pageSize)-byte page"),
            (
                bytes[21] == 64 && bytes[22] == 32 && bytes[23] == 32,
                "its header's payload fractions are \(bytes[21]), \(bytes[22]), \(bytes[23])"
            ),
            (
                (0...4).contains(integer(at: 44, width: 4)),
                "its header gives schema format \(integer(at: 44, width: 4))"
            ),
            (
                (0...3).contains(integer(at: 56, width: 4)),
                "its header gives text encoding \(integer(at: 56, width: 4))"
            ),
            (bytes[72..<92].allSatisfy { $0 == 0 }, "its header's reserved bytes are not zero"),
        ]
        if let problem = problems.first(where: { !$0.0 }) {
            throw .corrupt(path, detail: problem.1)
        }
        self.pageSize = pageSize
        // The page count is only kept when "version-valid-for" matches the change counter.
        let count = integer(at: 28, width: 4)
        self.pageCount = count > 0 && integer(at: 92, width: 4) == integer(at: 24, width: 4) ? count : nil
    }

    /// Checks that a file of `fileSize` bytes holds every page the header counts.
    ///
    /// Only valid for a file with no write-ahead log left to apply: a checkpoint interrupted by a crash may have
    /// written page 1 before growing the file, which the log's frames complete when SQLite recovers it.
    ///
    /// - Throws: ``SQLiteError/corrupt(_:detail:)`` when the file is shorter than its pages.
    func checkHoldsEveryPage(fileSize: Int, path: String) throws(SQLiteError) {
        guard let pageCount, fileSize < pageCount * pageSize else { return }
        throw .corrupt(
            path,
            detail: "its header counts \(pageCount) pages of \(pageSize) bytes, but the file has \(fileSize) bytes")
    }
}
