import Foundation

/// `localizedDescription` (what `fatalError(error.localizedDescription)` and `Text(error.localizedDescription)`
/// show) carries the same message as `description`, not Foundation's generic "StrataError error 4".
extension StrataError: LocalizedError {
    /// The error's message: the same text as ``description``.
    public var errorDescription: String? { description }
}
