import Foundation

extension StrataText {
    /// Swift's `String` order as a total order, for the `STRATA_SWIFT` collation: the Unicode scalars of the
    /// canonical composition (NFC) of each string, compared lexicographically, which is how Swift documents `<` and
    /// `==` ("é" equals "e\u{301}"; "\u{FB01}" sorts after "fz").
    ///
    /// Where Swift's `<` gives an answer this agrees with it. Swift 6.3's `<` gives none when a decomposed string's
    /// composition is a strict prefix of the other string (`"e\u{301}" < "éa"` and `"éa" < "e\u{301}"` are both
    /// false though the strings differ); this order puts the shorter first there, so a sort stays consistent.
    ///
    /// ```swift
    /// StrataText.swiftOrder("e\u{301}", "é") // .orderedSame
    /// ```
    package static func swiftOrder(_ left: String, _ right: String) -> ComparisonResult {
        if left == right { return .orderedSame }
        if isASCII(left) && isASCII(right) {
            return left.utf8.lexicographicallyPrecedes(right.utf8) ? .orderedAscending : .orderedDescending
        }
        let composedLeft = left.precomposedStringWithCanonicalMapping.unicodeScalars
        let composedRight = right.precomposedStringWithCanonicalMapping.unicodeScalars
        if composedLeft.elementsEqual(composedRight) { return .orderedSame }
        return composedLeft.lexicographicallyPrecedes(composedRight) ? .orderedAscending : .orderedDescending
    }

    private static func isASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 }
    }
}
