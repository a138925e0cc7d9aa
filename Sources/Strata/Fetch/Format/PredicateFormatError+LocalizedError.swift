import Foundation

/// `localizedDescription` carries the same message, line and caret as `description`.
extension PredicateFormatError: LocalizedError {
    /// The error's message: the same text as ``description``.
    public var errorDescription: String? { description }
}
