import Foundation

/// `localizedDescription` (what `Text(error.localizedDescription)` shows) says what failed and where: the message
/// of the ``SwiftDataError/underlyingError``, not Foundation's generic "SwiftDataError error 1".
extension SwiftDataError: LocalizedError {
    /// The underlying error's message, or the kind's name for a bare kind.
    public var errorDescription: String? { underlyingError?.description ?? "SwiftDataError.\(description)" }
}
