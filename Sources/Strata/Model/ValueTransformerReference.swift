import Foundation

/// The value transformer of a `.transformable(by:)` attribute: its type or the name it is registered under,
/// looked up each time a value is stored or read, so a transformer registered after the schema was built is found.
package enum ValueTransformerReference: @unchecked Sendable {
    // `@unchecked` because of the class metatype, which is immutable.
    case type(ValueTransformer.Type)
    case name(String)

    /// The name the transformer is found by: the registered name, or the type's name.
    package var name: String {
        switch self {
        case .type(let type): String(describing: type)
        case .name(let name): name
        }
    }

    /// The transformer: the one registered under ``name``, else (for a type, on Linux) a new instance of it.
    func transformer() -> ValueTransformer? {
        let registeredName = NSValueTransformerName(rawValue: name)
        #if canImport(ObjectiveC)
        if let registered = ValueTransformer(forName: registeredName) { return registered }
        #else
        // The registered instance itself: `ValueTransformer(forName:)` would allocate a forwarder for every value.
        if let registered = ValueTransformer.registeredTransformer(named: registeredName) { return registered }
        #endif
        guard case .type(let type) = self else { return nil }
        #if canImport(ObjectiveC)
        // Foundation's `ValueTransformer` has no required initializer to make one from its type.
        return nil
        #else
        return type.init()
        #endif
    }

    /// The data `value` is stored as.
    /// - Throws: ``ValueTransformerFailure`` when no transformer is found or it makes no data of the value.
    func data(from value: Any) throws -> Data {
        guard let transformer = transformer() else { throw ValueTransformerFailure.notRegistered(name: name) }
        let transformed =
            transformer.storesThroughReverseTransformation
            ? transformer.reverseTransformedValue(value) : transformer.transformedValue(value)
        guard let data = transformed as? Data else {
            throw ValueTransformerFailure.madeNoData(transformer: name, valueType: "\(Swift.type(of: value))")
        }
        return data
    }

    /// The value `data` reads back as, or `nil` when no transformer is found or it makes nothing of the data.
    func value(from data: Data) -> Any? {
        guard let transformer = transformer() else { return nil }
        return transformer.storesThroughReverseTransformation
            ? transformer.transformedValue(data) : transformer.reverseTransformedValue(data)
    }
}

/// Why a value of a `.transformable(by:)` attribute can't be stored.
package enum ValueTransformerFailure: Error, CustomStringConvertible {
    case notRegistered(name: String)
    case madeNoData(transformer: String, valueType: String)

    package var description: String {
        switch self {
        case .notRegistered(let name):
            "no value transformer is registered under '\(name)' (call ValueTransformer.setValueTransformer(_:forName:) "
                + "before assigning the value)"
        case .madeNoData(let transformer, let valueType):
            "the value transformer '\(transformer)' made no Data of a \(valueType)"
        }
    }
}

extension ValueTransformer {
    /// Whether the transformer makes values from data (an unarchiving transformer, such as
    /// `NSSecureUnarchiveFromDataTransformer`), so a value is stored through its reverse transformation, as Core
    /// Data does.
    var storesThroughReverseTransformation: Bool { self is NSSecureUnarchiveFromDataTransformer }
}

extension ValueCodec {
    /// A `.transformable(by:)` attribute's codec: the value stored as the data its transformer makes.
    static func transformed(by reference: ValueTransformerReference) -> ValueCodec {
        ValueCodec(
            kind: .attribute(.blob), isOptional: false, valueType: Value.self, cachesDecodedValue: true,
            encode: { value in .blob(Array(try reference.data(from: value))) },
            decode: { stored in
                guard case .blob(let bytes) = stored else { return nil }
                return reference.value(from: Data(bytes)) as? Value
            }
        )
    }

    /// An optional `.transformable(by:)` attribute's codec: `NULL` for `nil`.
    static func optionalTransformed<Wrapped>(_: Wrapped.Type, by reference: ValueTransformerReference) -> ValueCodec
    where Value == Wrapped? {
        ValueCodec(
            kind: .attribute(.blob), isOptional: true, valueType: Wrapped.self, cachesDecodedValue: true,
            encode: { value in
                guard let value else { return .null }
                return .blob(Array(try reference.data(from: value)))
            },
            decode: { stored in
                if case .null = stored { return .some(nil) }
                guard case .blob(let bytes) = stored, let value = reference.value(from: Data(bytes)) as? Wrapped
                else { return nil }
                return .some(value)
            }
        )
    }
}
