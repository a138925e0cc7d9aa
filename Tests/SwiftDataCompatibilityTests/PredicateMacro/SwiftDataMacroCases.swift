import SwiftData

// Keep the closures below identical to those of the other file: the two lists are compared case by case.

/// The cases of ``PredicateMacroCases`` built by the `SwiftData` module's `#Predicate`, closure for closure as
/// `FoundationMacroCases.swift` builds them with Foundation's.
extension PredicateMacroCases {
    static func swiftDataMacro() -> [(name: String, predicate: Predicate<PredicateSample>)] {
        let word = "Alpha"
        let limit = 1.0
        let words = ["beta", "ALPHABET"]
        let same = ComparisonResult.orderedSame
        let ascending = ComparisonResult.orderedAscending
        return [
            ("return statement", #Predicate<PredicateSample> { input in return input.count > 2 }),
            ("implicit return", #Predicate<PredicateSample> { input in input.count > 2 }),
            ("inferred input type", #Predicate { (input: PredicateSample) in input.count >= 0 }),
            ("shorthand parameter", #Predicate<PredicateSample> { $0.name == "Alpha" }),
            ("typed parameter", #Predicate<PredicateSample> { (input: PredicateSample) -> Bool in input.count == 3 }),
            (
                "comments",
                #Predicate<PredicateSample> { input in // the sample's own count
                    input.count >= 0 // at least zero
                }
            ),
            ("key path chain", #Predicate<PredicateSample> { $0.name.count == 5 }),
            ("captured value", #Predicate<PredicateSample> { $0.name == word && $0.ratio < limit }),
            ("contains", #Predicate<PredicateSample> { $0.tags.contains("bb") }),
            ("contains a captured value", #Predicate<PredicateSample> { words.contains($0.name) }),
            ("contains(where:)", #Predicate<PredicateSample> { $0.tags.contains(where: { $0 == "b" }) }),
            ("contains, trailing closure", #Predicate<PredicateSample> { $0.tags.contains { $0.count > 1 } }),
            ("contains(where:) a key path", #Predicate<PredicateSample> { $0.children.contains(where: \.flag) }),
            ("allSatisfy", #Predicate<PredicateSample> { $0.scores.allSatisfy { $0 > 1 } }),
            ("filter", #Predicate<PredicateSample> { $0.scores.filter { $0 > 1 }.count == 2 }),
            ("flatMap", #Predicate<PredicateSample> { $0.note.flatMap { $0.count } == 4 }),
            ("subscript", #Predicate<PredicateSample> { $0.tags.count > 1 && $0.tags[1] == "bb" }),
            ("subscript with default", #Predicate<PredicateSample> { $0.tally["a", default: 0] > 1 }),
            ("starts(with:)", #Predicate<PredicateSample> { $0.name.starts(with: "Al") }),
            ("min", #Predicate<PredicateSample> { $0.scores.min() == 1 }),
            ("max", #Predicate<PredicateSample> { $0.scores.max() == 5 }),
            ("localizedStandardContains", #Predicate<PredicateSample> { $0.name.localizedStandardContains("alp") }),
            (
                "caseInsensitiveCompare",
                #Predicate<PredicateSample> {
                    $0.name.caseInsensitiveCompare("alpha") == same
                }
            ),
            ("localizedCompare", #Predicate<PredicateSample> { $0.name.localizedCompare("b") == ascending }),
            ("== and !=", #Predicate<PredicateSample> { $0.count == 3 || $0.name != "beta" }),
            ("< and <=", #Predicate<PredicateSample> { $0.count < 3 && $0.ratio <= 1.5 }),
            ("> and >=", #Predicate<PredicateSample> { $0.count > -2 && $0.ratio >= 0.5 }),
            ("+ and -", #Predicate<PredicateSample> { $0.count + 2 - 1 == 4 }),
            ("* and /", #Predicate<PredicateSample> { $0.ratio * 2 / 4 < 0.5 }),
            ("integer / and %", #Predicate<PredicateSample> { $0.count / 2 == 1 && $0.count % 2 == 1 }),
            ("unary minus", #Predicate<PredicateSample> { -$0.count > 0 }),
            ("negation", #Predicate<PredicateSample> { !($0.count > 0) }),
            ("nil coalescing", #Predicate<PredicateSample> { ($0.note ?? "none") == "none" }),
            ("closed range", #Predicate<PredicateSample> { (0...3).contains($0.count) }),
            ("half-open range", #Predicate<PredicateSample> { (-5..<$0.count).contains(1) }),
            ("nil", #Predicate<PredicateSample> { $0.note == nil }),
            ("force unwrap", #Predicate<PredicateSample> { $0.note != nil && $0.note!.count > 4 }),
            ("optional chain", #Predicate<PredicateSample> { $0.note?.count == 4 }),
            ("optional chain of two", #Predicate<PredicateSample> { $0.child?.detail?.name == "grandchild" }),
            ("optional chain into a call", #Predicate<PredicateSample> { $0.note?.starts(with: "a") == true }),
            ("ternary", #Predicate<PredicateSample> { $0.count > 2 ? $0.name == "Alpha" : $0.ratio > 1 }),
            ("is", #Predicate<PredicateSample> { $0.payload is Int }),
            ("as?", #Predicate<PredicateSample> { ($0.payload as? Int) == 3 }),
            (
                "if else",
                #Predicate<PredicateSample> {
                    if $0.count > 2 {
                        $0.name == "Alpha"
                    } else {
                        false
                    }
                }
            ),
            (
                "else if",
                #Predicate<PredicateSample> {
                    if $0.count > 5 {
                        true
                    } else if $0.count > -1 {
                        $0.ratio > 1
                    } else {
                        false
                    }
                }
            ),
            (
                "if with two conditions",
                #Predicate<PredicateSample> {
                    if $0.count > -5, $0.ratio < 1 {
                        true
                    } else {
                        false
                    }
                }
            ),
            (
                "if returning",
                #Predicate<PredicateSample> {
                    if $0.count > 2 {
                        return true
                    } else {
                        return $0.tags.isEmpty
                    }
                }
            ),
            (
                "if let",
                #Predicate<PredicateSample> {
                    if let note = $0.note {
                        note.count > 4
                    } else {
                        false
                    }
                }
            ),
            (
                "if let, two bindings",
                #Predicate<PredicateSample> { sample in
                    if let child = sample.child, let detail = child.detail {
                        detail.name.count > 5
                    } else {
                        sample.count == 3
                    }
                }
            ),
            (
                "nested closure naming the outer input",
                #Predicate<PredicateSample> { sample in
                    sample.children.contains { child in child.name == sample.note }
                }
            ),
            ("parentheses", #Predicate<PredicateSample> { ($0.count > 2) && ($0.ratio < 1) }),
        ]
    }
}
