import Foundation

/// The value the predicate-macro tests evaluate: one of each kind of property Foundation's macro tests reach.
struct PredicateSample {
    var name: String
    var count: Int
    var ratio: Double
    var note: String?
    var tags: [String]
    var scores: [Int]
    var tally: [String: Int]
    var child: PredicateSampleChild?
    var children: [PredicateSampleChild]
    var payload: Any

    /// Samples that make every case of ``PredicateMacroCases`` both true and false at least once.
    static var all: [PredicateSample] {
        [
            PredicateSample(
                name: "Alpha", count: 3, ratio: 0.5, note: "four", tags: ["a", "bb"], scores: [1, 2, 3],
                tally: ["a": 2], child: PredicateSampleChild(name: "kid", flag: true, detail: nil),
                children: [PredicateSampleChild(name: "Alpha", flag: false, detail: nil)], payload: 3),
            PredicateSample(
                name: "beta", count: 0, ratio: 1.5, note: nil, tags: [], scores: [5], tally: [:],
                child: PredicateSampleChild(name: nil, flag: false, detail: PredicateSampleDetail(name: "grandchild")),
                children: [], payload: "three"),
            PredicateSample(
                name: "ALPHABET", count: -2, ratio: 0.05, note: "a note", tags: ["b"], scores: [], tally: ["a": 1],
                child: nil, children: [PredicateSampleChild(name: "a note", flag: true, detail: nil)], payload: 7),
        ]
    }
}

/// A value ``PredicateSample`` holds, optionally and in a list.
struct PredicateSampleChild {
    var name: String?
    var flag: Bool
    var detail: PredicateSampleDetail?
}

/// What a ``PredicateSampleChild`` may hold: the third level of an optional chain.
struct PredicateSampleDetail {
    var name: String
}
