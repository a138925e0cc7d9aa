import Foundation
import Synchronization

#if !canImport(ObjectiveC)
// swift-corelibs-foundation has no `ValueTransformer`; Foundation on Apple's platforms does, and there Strata uses
// Foundation's. These give Core Data-era transformers (`.transformable(by:)` attributes) the same names on Linux.

/// The name a value transformer is registered under, as in Foundation.
public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable {
    /// The name.
    public let rawValue: String

    /// Creates a name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a name.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The name of the transformer that unarchives data with `NSKeyedUnarchiver` in secure-coding mode
    /// (``NSSecureUnarchiveFromDataTransformer``), registered from the start.
    public static let secureUnarchiveFromDataTransformerName = NSValueTransformerName(
        "NSSecureUnarchiveFromDataTransformerName")
    /// The name of the transformer that turns `true` into `false` and back, registered from the start.
    public static let negateBooleanTransformerName = NSValueTransformerName("NSNegateBoolean")
    /// The name of the transformer that answers whether a value is `nil`, registered from the start.
    public static let isNilTransformerName = NSValueTransformerName("NSIsNil")
    /// The name of the transformer that answers whether a value is not `nil`, registered from the start.
    public static let isNotNilTransformerName = NSValueTransformerName("NSIsNotNil")
}

/// Converts values from one representation to another, as Foundation's `ValueTransformer` does.
///
/// Subclass it and override ``transformedValueClass()``, ``allowsReverseTransformation()``,
/// ``transformedValue(_:)`` and ``reverseTransformedValue(_:)``. An attribute declared
/// `@Attribute(.transformable(by: MyTransformer.self))` is stored as the data the transformer makes.
open class ValueTransformer: NSObject {
    /// A registered transformer, handed between threads as Foundation's registry hands them.
    private struct Registered: @unchecked Sendable {
        let transformer: ValueTransformer
    }

    /// The registered transformers, by name.
    private static let registry = Mutex<[NSValueTransformerName: Registered]>([
        .secureUnarchiveFromDataTransformerName: Registered(transformer: NSSecureUnarchiveFromDataTransformer()),
        .negateBooleanTransformerName: Registered(transformer: BooleanTransformer(kind: .negate)),
        .isNilTransformerName: Registered(transformer: BooleanTransformer(kind: .isNil)),
        .isNotNilTransformerName: Registered(transformer: BooleanTransformer(kind: .isNotNil)),
    ])

    /// The registered transformer a transformer made with ``init(forName:)`` forwards to.
    private var registered: ValueTransformer?

    /// Creates a transformer.
    public required override init() { super.init() }

    /// The transformer registered under `name`, or `nil` when none is.
    public convenience init?(forName name: NSValueTransformerName) {
        guard let transformer = Self.registeredTransformer(named: name) else { return nil }
        self.init()
        registered = transformer
    }

    /// Registers `transformer` under `name`, replacing any registered before; `nil` removes the registration.
    open class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
        let registered = transformer.map { Registered(transformer: $0) }
        registry.withLock { $0[name] = registered }
    }

    /// The transformer registered under `name` itself (``init(forName:)`` makes one that forwards to it).
    static func registeredTransformer(named name: NSValueTransformerName) -> ValueTransformer? {
        registry.withLock { $0[name] }?.transformer
    }

    /// The names of the registered transformers.
    open class func valueTransformerNames() -> [NSValueTransformerName] {
        registry.withLock { Array($0.keys) }.sorted { $0.rawValue < $1.rawValue }
    }

    /// The class of the values ``transformedValue(_:)`` returns. `NSObject` unless overridden.
    open class func transformedValueClass() -> AnyClass { NSObject.self }

    /// Whether ``reverseTransformedValue(_:)`` undoes ``transformedValue(_:)``. `true` unless overridden.
    open class func allowsReverseTransformation() -> Bool { true }

    /// `value` transformed. The base class returns `value` itself.
    open func transformedValue(_ value: Any?) -> Any? {
        if let registered { return registered.transformedValue(value) }
        return value
    }

    /// A transformed value turned back. The base class returns `value` itself.
    open func reverseTransformedValue(_ value: Any?) -> Any? {
        if let registered { return registered.reverseTransformedValue(value) }
        return value
    }
}

/// Unarchives data with `NSKeyedUnarchiver` in secure-coding mode, and archives values back, as Foundation's does.
///
/// Override ``allowedTopLevelClasses`` to name the classes the data may hold. As an attribute's transformer, it
/// stores a value archived and reads it unarchived.
open class NSSecureUnarchiveFromDataTransformer: ValueTransformer {
    /// The classes the unarchived value may be: `NSArray`, `NSDictionary`, `NSSet`, `NSString`, `NSNumber`,
    /// `NSDate`, `NSData`, `NSURL`, `NSUUID` and `NSNull` unless overridden.
    open class var allowedTopLevelClasses: [AnyClass] {
        [
            NSArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self, NSDate.self, NSData.self,
            NSURL.self, NSUUID.self, NSNull.self,
        ]
    }

    /// `NSObject`: the unarchived value's class is one of ``allowedTopLevelClasses``.
    open override class func transformedValueClass() -> AnyClass { NSObject.self }

    /// `true`: values are archived back.
    open override class func allowsReverseTransformation() -> Bool { true }

    /// The value `value` (data) unarchives to, or `nil` when it isn't an archive of an allowed class.
    open override func transformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return try? NSKeyedUnarchiver.unarchivedObject(ofClasses: Self.allowedTopLevelClasses, from: data)
    }

    /// `value` archived, or `nil` when it can't be archived securely.
    open override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let value else { return nil }
        return try? NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true)
    }
}

/// The transformers Foundation registers for booleans and `nil` checks.
private final class BooleanTransformer: ValueTransformer {
    enum Kind { case negate, isNil, isNotNil }
    private var kind = Kind.negate

    convenience init(kind: Kind) {
        self.init()
        self.kind = kind
    }

    override class func transformedValueClass() -> AnyClass { NSNumber.self }

    override func transformedValue(_ value: Any?) -> Any? {
        switch kind {
        case .negate: (value as? Bool).map { NSNumber(value: !$0) }
        case .isNil: NSNumber(value: value == nil)
        case .isNotNil: NSNumber(value: value != nil)
        }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        kind == .negate ? transformedValue(value) : nil
    }
}

/// Runs `body`, as Foundation's `autoreleasepool(invoking:)` does; Linux has no autorelease pools to drain, so it
/// only runs it. Value transformers written for Apple's platforms wrap their work in it.
///
/// It yields to any other `autoreleasepool(invoking:)` in scope (`@_disfavoredOverload`): an app's own stand-in, in
/// its module or one it imports, is the one called, without ambiguity.
@_disfavoredOverload
public func autoreleasepool<Result>(invoking body: () throws -> Result) rethrows -> Result {
    try body()
}
#endif
