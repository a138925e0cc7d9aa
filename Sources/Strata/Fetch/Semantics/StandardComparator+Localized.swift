import Foundation

/// The localized `String.StandardComparator` values Foundation declares on Apple's platforms and not on Linux, where
/// swift-foundation offers only `.lexical` (its comparators have no locale there yet) and refuses to decode any other.
///
/// `String.StandardComparator` keeps its comparison as stored properties (compare options, whether it is localized,
/// its order) behind a private initializer, so these values are `.lexical` with those properties set in place. The
/// layout is checked before anything is written (ten bytes: the options' raw value, then the flag, then the order),
/// and the result is checked through the comparator's own encoding; on a Foundation laid out otherwise the values are
/// `nil` and callers fall back to `.lexical`.
///
/// A store orders a `SortDescriptor` made with one of them by the matching ``QueryOrdering/Collation``, as Apple's
/// does. The comparator's own `compare(_:_:)`, which `sorted(using:)` calls, is Foundation's on Linux: it ignores the
/// locale and compares with the stored options only. So they carry just `.numeric`, the one option Foundation's
/// Linux comparison implements for every string (case folding, diacritic and width folding stop the process there for
/// text outside ASCII): `sorted(using:)` orders `"file2"` before `"file10"`, case-sensitively.
extension String.StandardComparator {
    #if canImport(Darwin)
    /// Finder's order (`localizedStandardCompare`): Foundation's own value.
    package static let strataLocalizedStandard: String.StandardComparator? = .localizedStandard

    /// The current locale's order (`localizedCompare`): Foundation's own value.
    package static let strataLocalized: String.StandardComparator? = .localized
    #else
    /// Finder's order (`localizedStandardCompare`): localized, case-insensitive, numbers by value.
    package static let strataLocalizedStandard: String.StandardComparator? = localizedComparator(options: [.numeric])

    /// The current locale's order (`localizedCompare`).
    package static let strataLocalized: String.StandardComparator? = localizedComparator(options: [])
    #endif

    /// The store collation that orders as this comparator does on Apple's platforms: `.localizedStandard` and
    /// `.localized` for the values above (in either order), `nil` for any other comparator.
    package var strataCollation: QueryOrdering.Collation? {
        let forward = String.StandardComparator(self, order: .forward)
        if let finder = Self.strataLocalizedStandard, forward == finder { return .localizedStandard }
        if let localized = Self.strataLocalized, forward == localized { return .localized }
        return nil
    }

    #if !canImport(Darwin)
    /// `.lexical` made localized, with `options`; `nil` unless the layout and the encoded result are as expected.
    private static func localizedComparator(options: String.CompareOptions) -> String.StandardComparator? {
        let optionsSize = MemoryLayout<UInt>.size
        let forward = bytes(of: .lexical)
        let reverse = bytes(of: String.StandardComparator(.lexical, order: .reverse))
        guard MemoryLayout<String.StandardComparator>.size == optionsSize + 2,
            forward.dropLast().allSatisfy({ $0 == 0 }), reverse.dropLast() == forward.dropLast(),
            forward.last != reverse.last
        else { return nil }
        // Only the options' word and the flag's byte change; the order's byte, found above, stays `.forward`.
        var comparator = String.StandardComparator.lexical
        withUnsafeMutableBytes(of: &comparator) { storage in
            storage.storeBytes(of: options.rawValue, toByteOffset: 0, as: UInt.self)
            storage.storeBytes(of: true, toByteOffset: optionsSize, as: Bool.self)
        }
        guard let encoded = try? JSONEncoder().encode(comparator),
            let fields = try? JSONSerialization.jsonObject(with: encoded) as? [String: Any],
            (fields["options"] as? NSNumber)?.uintValue == options.rawValue,
            (fields["isLocalized"] as? NSNumber)?.boolValue == true, comparator != .lexical
        else { return nil }
        return comparator
    }

    /// The bytes of `comparator`.
    private static func bytes(of comparator: String.StandardComparator) -> [UInt8] {
        var copy = comparator
        return withUnsafeBytes(of: &copy) { Array($0) }
    }
    #endif
}
