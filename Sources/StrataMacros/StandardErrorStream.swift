#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A text stream writing to the process's standard error (file descriptor 2).
struct StandardErrorStream: TextOutputStream {
    mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                writeToStandardError(buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written <= 0 { return }
            offset += written
        }
    }
}

// The C library's write(2), named outside the type so its own `write(_:)` does not shadow it.
private func writeToStandardError(_ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    write(2, bytes, count)
}
