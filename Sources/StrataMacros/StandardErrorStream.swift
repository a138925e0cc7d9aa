#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A text stream writing to the process's standard error (file descriptor 2).
struct StandardErrorStream: TextOutputStream {
    mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        _ = bytes.withUnsafeMutableBytes { buffer in
            Glibc.write(2, buffer.baseAddress, buffer.count)
        }
    }
}
