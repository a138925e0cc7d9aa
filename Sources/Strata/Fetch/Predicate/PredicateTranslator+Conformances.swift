import Foundation
import Synchronization

/// The protocols the translator asks a predicate node about, looked up once per node type.
///
/// Casting a value held in an `Any` to a protocol existential (`as? any QueryTranslatable`) makes the Swift runtime
/// look for a conformance, checking conditional requirements (`Arithmetic: CheckedFolding where LHS.Output:
/// FixedWidthInteger`) by demangling types. Translating `$0.score > threshold` made some 44 such casts and took
/// 4–7 µs; with the answers kept here by type (they depend on nothing else) and each node opened as its own concrete
/// type, it takes about 2 µs.
// Unchecked: it holds only metatypes, which name immutable type metadata.
struct PredicateNodeConformances: @unchecked Sendable {
    let translatable: (any QueryTranslatable.Type)?
    let checkedFolding: (any CheckedFolding.Type)?
    let inputReading: (any PredicateInputReading.Type)?
    let expression: (any PredicateExpression.Type)?

    private init(_ type: Any.Type) {
        translatable = type as? any QueryTranslatable.Type
        checkedFolding = type as? any CheckedFolding.Type
        inputReading = type as? any PredicateInputReading.Type
        expression = type as? any PredicateExpression.Type
    }

    private static let known = TypeKeyedCache(PredicateNodeConformances.init)

    /// The conformances of `node`'s dynamic type.
    static func of(_ node: Any) -> PredicateNodeConformances { known.entry(for: Swift.type(of: node)) }

    // `node` as each protocol; `nil` when its type doesn't conform. Each is cast to its own dynamic type `T` (a
    // comparison of type metadata, no conformance lookup), which can't fail, so the cast is forced: a conditional
    // cast to `T` would look up `Optional<T>`'s metadata on every call, costing more than the cast.
    static func translatable(_ node: Any) -> (any QueryTranslatable)? { of(node).translatable.map { open(node, $0) } }
    static func checkedFolding(_ node: Any) -> (any CheckedFolding)? { of(node).checkedFolding.map { open(node, $0) } }
    static func inputReading(_ node: Any) -> (any PredicateInputReading)? {
        of(node).inputReading.map { open(node, $0) }
    }
    static func expression(_ node: Any) -> (any PredicateExpression)? { of(node).expression.map { open(node, $0) } }

    private static func open<T: QueryTranslatable>(_ node: Any, _: T.Type) -> any QueryTranslatable { node as! T }
    private static func open<T: CheckedFolding>(_ node: Any, _: T.Type) -> any CheckedFolding { node as! T }
    private static func open<T: PredicateInputReading>(_ node: Any, _: T.Type) -> any PredicateInputReading {
        node as! T
    }
    private static func open<T: PredicateExpression>(_ node: Any, _: T.Type) -> any PredicateExpression { node as! T }
}

/// The conformances a constant is asked about, looked up once per type (see ``PredicateNodeConformances``).
// Unchecked: it holds only metatypes, which name immutable type metadata.
struct ConstantConformances: @unchecked Sendable {
    let floatingPoint: (any BinaryFloatingPoint.Type)?
    let optional: (any OptionalProtocol.Type)?

    private init(_ type: Any.Type) {
        floatingPoint = type as? any BinaryFloatingPoint.Type
        optional = type as? any OptionalProtocol.Type
    }

    private static let known = TypeKeyedCache(ConstantConformances.init)

    /// Whether `value` is a floating-point NaN, seeing through `Optional` as a cast to `any BinaryFloatingPoint`
    /// does.
    static func isNaN(_ value: Any) -> Bool {
        let conformances = known.entry(for: type(of: value))
        if let type = conformances.floatingPoint { return isNaN(value, type) }
        guard let type = conformances.optional, let wrapped = wrappedValue(of: value, type) else { return false }
        return isNaN(wrapped)
    }

    // `T` is `value`'s own type (see ``PredicateNodeConformances/translatable(_:)``).
    private static func isNaN<T: BinaryFloatingPoint>(_ value: Any, _: T.Type) -> Bool { (value as! T).isNaN }
    private static func wrappedValue<T: OptionalProtocol>(of value: Any, _: T.Type) -> Any? {
        (value as! T).wrappedValue
    }
}

/// Answers about types, worked out once per type and kept for the life of the process (types are never
/// unloaded, so the set is bounded by the program's types).
final class TypeKeyedCache<Entry: Sendable>: Sendable {
    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])
    private let make: @Sendable (Any.Type) -> Entry

    init(_ make: @escaping @Sendable (Any.Type) -> Entry) {
        self.make = make
    }

    /// The entry for `type`, worked out on first use.
    func entry(for type: Any.Type) -> Entry {
        let key = ObjectIdentifier(type)
        if let found = entries.withLock({ $0[key] }) { return found }
        // Worked out outside the lock: a conformance lookup can take a while, and two threads making the same
        // entry make equal ones.
        let made = make(type)
        entries.withLock { $0[key] = made }
        return made
    }
}
