// Foundation's localized string comparators, which swift-foundation declares only on Apple's platforms. Each is
// `@_disfavoredOverload`, so a Foundation that declares them, or an app's own stand-in, is chosen over these without
// ambiguity.
#if !canImport(Darwin)
import Foundation
import Strata

extension String.StandardComparator {
    /// Compares `String`s as the Finder does: localized, ignoring case, numbers by value (`"file2"` before
    /// `"file10"`), as `localizedStandardCompare(_:)` does.
    ///
    /// `SortDescriptor(\.name, comparator: .localizedStandard)` in a `FetchDescriptor` orders as on Apple's
    /// platforms, in the store and among unsaved models alike. The comparator's own `compare(_:_:)` (what
    /// `sorted(using:)` calls) is Foundation's, which on Linux ignores the locale and case: it orders numbers by value
    /// and otherwise by Unicode scalars. Sort an array in memory with `localizedStandardCompare(_:)` instead.
    @_disfavoredOverload
    public static let localizedStandard: String.StandardComparator = strataLocalizedStandard ?? .lexical

    /// Compares `String`s in the current locale's order, as `localizedCompare(_:)` does.
    ///
    /// A `FetchDescriptor` sorted with it orders as on Apple's platforms; its own `compare(_:_:)` is Foundation's,
    /// which on Linux compares lexically.
    @_disfavoredOverload
    public static let localized: String.StandardComparator = strataLocalized ?? .lexical
}

extension SortComparator where Self == String.Comparator {
    /// A `String.Comparator` of `String.StandardComparator.localizedStandard`:
    /// `KeyPathComparator(\.name, comparator: .localizedStandard)`. Foundation's comparison on Linux ignores the
    /// locale and case; it orders numbers by value.
    @_disfavoredOverload
    public static var localizedStandard: String.Comparator {
        String.Comparator(String.StandardComparator.localizedStandard)
    }

    /// A `String.Comparator` of `String.StandardComparator.localized`. Foundation's comparison on Linux
    /// ignores the locale.
    @_disfavoredOverload
    public static var localized: String.Comparator { String.Comparator(String.StandardComparator.localized) }
}
#endif
