import Foundation

/// A failure of the torture harness itself (not a finding): bad arguments, a child that can't start.
struct TortureError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Writes a line to standard output at once (unbuffered, so a long run's progress can be followed in a file).
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
