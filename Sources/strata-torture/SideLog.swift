import Foundation

/// The writer's record of committed saves: one fixed-width line per save (`number digest`), appended after
/// `save()` returns and flushed to disk with `fsync` before the next save starts.
struct SideLog {
    /// `%08d %016llx\n`: fixed, so the parent counts lines by the file's size.
    static let lineLength = 26

    private let descriptor: Int32

    /// Opens (creating) the log at `path` for appending.
    init(path: String) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard descriptor >= 0 else { throw TortureError("cannot open the side log \(path): errno \(errno)") }
    }

    /// Appends one save and waits until it is on disk.
    func append(number: Int, digest: UInt64) throws {
        let line = String(format: "%08d %016llx\n", number, digest)
        let written = line.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, Self.lineLength) }
        guard written == Self.lineLength, fsync(descriptor) == 0 else {
            throw TortureError("side log write failed: errno \(errno)")
        }
    }

    /// How many saves the log at `path` holds (whole lines only).
    static func count(at path: String) -> Int {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return size / lineLength
    }

    /// The saves the log at `path` records, in order, as (number, digest).
    static func read(at path: String) -> [(number: Int, digest: UInt64)] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 2, let number = Int(fields[0]), let digest = UInt64(fields[1], radix: 16) else {
                return nil
            }
            return (number, digest)
        }
    }
}
