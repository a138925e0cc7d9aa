import Foundation

/// The values a deleted model's `@Attribute(.preserveValueOnDeletion)` properties held, kept in the history:
///
/// ```swift
/// if case .delete(let deletion) = change, let deletion = deletion as? DefaultHistoryDelete<Trip> {
///     let name = deletion.tombstone[\.name] as? String
/// }
/// ```
public struct HistoryTombstone<Model: PersistentModel>: Sendable, Sequence {
    /// One preserved value: the property's key path and its value.
    public typealias Element = (keyPath: any PartialKeyPath<Model> & Sendable, value: any Sendable)

    private let values: [Element]

    package init(values: [Element]) {
        self.values = values
    }

    /// The preserved value of the property at `keyPath`; `nil` when it isn't preserved (or the model no longer has
    /// the property).
    public subscript(keyPath: PartialKeyPath<Model>) -> (any Sendable)? {
        values.first { $0.keyPath == keyPath }?.value
    }

    /// Iterates over the preserved values.
    public func makeIterator() -> IndexingIterator<[Element]> {
        values.makeIterator()
    }
}

extension PartialKeyPath {
    /// The key path as a `Sendable` one. A persistent property's key path names a stored property and is never
    /// changed, so it is safe to share; `& Sendable` adds no witness table, so the reference is reinterpreted as is.
    var assumedSendable: any PartialKeyPath<Root> & Sendable {
        unsafeBitCast(self, to: (any PartialKeyPath<Root> & Sendable).self)
    }
}

/// A decoded stored value as `any Sendable`: the values a property decodes to are fresh, immutable copies (text,
/// numbers, dates, identifiers, decoded `Codable` values), which history hands to whatever isolation fetched it.
/// `Any` and `any Sendable` have one layout (`Sendable` is a marker protocol, with no witness table), so the
/// existential is reinterpreted in place.
func assumedSendable(_ value: Any) -> any Sendable {
    var value = value
    return withUnsafePointer(to: &value) { pointer in
        UnsafeRawPointer(pointer).assumingMemoryBound(to: (any Sendable).self).pointee
    }
}
