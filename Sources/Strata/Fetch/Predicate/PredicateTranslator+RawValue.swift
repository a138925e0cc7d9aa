import Foundation

extension PredicateTranslator {
    /// Whether `keyPath`, applied to the raw-value enum `Enum` a property stores by its raw value, reads the raw
    /// value (`$0.status.rawValue`), so the property's own column is the value compared.
    ///
    /// A key path to `rawValue` can't be told apart by equality from the enum's other computed properties of the
    /// raw value's type (a `var title: String`), so it is checked on every case: it must return each case's
    /// `rawValue`. The cases are `allCases` for a `CaseIterable` enum, else read from the enum's type metadata.
    package static func readsRawValue<Enum, Value>(
        _ keyPath: KeyPath<Enum, Value>, of property: any AnyPersistentProperty
    ) -> Bool {
        guard case .attribute = property.kind, property.valueType == Enum.self, property.cachesDecodedValue,
            let rawType = Enum.self as? any RawRepresentable.Type
        else { return false }
        func check<Raw: RawRepresentable>(_: Raw.Type) -> Bool {
            guard Value.self == Raw.RawValue.self, let keyPath = keyPath as? KeyPath<Raw, Raw.RawValue>,
                let cases = everyCase(of: Raw.self), !cases.isEmpty
            else { return false }
            return cases.allSatisfy { matches($0[keyPath: keyPath], $0.rawValue) }
        }
        return check(rawType)
    }

    /// Whether two raw values are equal (raw values of enums are always `Equatable` in practice).
    private static func matches<Raw>(_ left: Raw, _ right: Raw) -> Bool {
        guard let left = left as? any Equatable else { return false }
        return isEqual(left, right)
    }

    private static func isEqual<Left: Equatable>(_ left: Left, _ right: Any) -> Bool {
        (right as? Left).map { $0 == left } ?? false
    }

    /// Every case of an enum: `allCases` when it is `CaseIterable`; otherwise, for an enum without payloads (as
    /// every raw-value enum is), each case index read from its type metadata; `nil` for any other type.
    package static func everyCase<Enum>(of type: Enum.Type) -> [Enum]? {
        if let iterable = type as? any CaseIterable.Type {
            return allCases(of: iterable).compactMap { $0 as? Enum }
        }
        // The enum's metadata starts with its kind (0x201 for enums) and points to its nominal type descriptor,
        // which holds the number of payload cases (low 24 bits) at offset 20 and of empty cases at offset 24.
        // A payload-free enum stores its case index, little-endian, in its MemoryLayout size (0 to 2 bytes here).
        let metadata = unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self)
        guard metadata.load(as: UInt.self) == 0x201 else { return nil }
        let descriptor = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UnsafeRawPointer.self)
        let payloadCases = descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0x00FF_FFFF
        let emptyCases = descriptor.load(fromByteOffset: 24, as: UInt32.self)
        let size = MemoryLayout<Enum>.size
        guard payloadCases == 0, emptyCases > 0, emptyCases <= 1 << 16,
            size == (emptyCases == 1 ? 0 : emptyCases <= 256 ? 1 : 2)
        else { return nil }
        return (0..<emptyCases).map { index in
            withUnsafeBytes(of: index.littleEndian) { $0.load(as: Enum.self) }
        }
    }

    private static func allCases<Iterable: CaseIterable>(of _: Iterable.Type) -> [Any] {
        Iterable.allCases.map { $0 }
    }
}
