/// A method a predicate can call, by its name and argument labels: `starts(with:)`, `contains(where:)`.
///
/// The list is the one Foundation's `#Predicate` accepts on Apple's platforms; each has a
/// `PredicateExpressions.build_<name>` function, which type-checks the arguments once the macro has expanded.
struct PredicateFunction {
    /// One parameter: a value, a closure (which a key path or a trailing closure can stand for), or a pack of
    /// one or more unlabeled values.
    enum Parameter: Equatable {
        case value(String?)
        case closure(String?)
        case pack

        /// The argument label, `nil` for none.
        var label: String? {
            switch self {
            case .value(let label), .closure(let label): label
            case .pack: nil
            }
        }
    }

    let name: String
    let parameters: [Parameter]

    init(_ name: String, _ parameters: [Parameter]) {
        self.name = name
        self.parameters = parameters
    }

    /// The function as Swift names it: `starts(with:)`.
    var signature: String {
        "\(name)(\(parameters.map { "\($0.label ?? "_"):" }.joined()))"
    }

    /// The methods predicates translate.
    static let supported: [PredicateFunction] = [
        PredicateFunction("contains", [.value(nil)]),
        PredicateFunction("contains", [.closure("where")]),
        PredicateFunction("allSatisfy", [.closure(nil)]),
        PredicateFunction("flatMap", [.closure(nil)]),
        PredicateFunction("filter", [.closure(nil)]),
        PredicateFunction("subscript", [.value(nil)]),
        PredicateFunction("subscript", [.value(nil), .value("default")]),
        PredicateFunction("starts", [.value("with")]),
        PredicateFunction("min", []),
        PredicateFunction("max", []),
        PredicateFunction("evaluate", [.pack]),
        PredicateFunction("localizedStandardContains", [.value(nil)]),
        PredicateFunction("localizedCompare", [.value(nil)]),
        PredicateFunction("caseInsensitiveCompare", [.value(nil)]),
    ]

    /// Methods predicates don't translate, each with the one to call instead.
    static let replacements: [(unsupported: PredicateFunction, replacement: PredicateFunction)] = [
        (PredicateFunction("hasPrefix", [.value(nil)]), PredicateFunction("starts", [.value("with")])),
        (
            PredicateFunction("localizedCaseInsensitiveContains", [.value(nil)]),
            PredicateFunction("localizedStandardContains", [.value(nil)])
        ),
        (
            PredicateFunction("localizedCaseInsensitiveCompare", [.value(nil)]),
            PredicateFunction("localizedCompare", [.value(nil)])
        ),
        (
            PredicateFunction("localizedStandardCompare", [.value(nil)]),
            PredicateFunction("localizedCompare", [.value(nil)])
        ),
    ]

    /// The parameters of the supported function a call of `name` with these argument labels (and a trailing closure
    /// or not) means, matched one for one to the arguments written in parentheses; `nil` when none is supported.
    static func parameters(
        ofCall name: String, labels: [String?], trailingClosure: Bool
    ) -> [Parameter]? {
        supported.lazy.filter { $0.name == name }
            .compactMap { $0.parameters(matching: labels, trailingClosure: trailingClosure) }.first
    }

    /// The replacement for a call of `name` with these labels, when there is one.
    static func replacement(for name: String, labels: [String?]) -> PredicateFunction? {
        replacements.first {
            $0.unsupported.name == name && $0.unsupported.parameters(matching: labels, trailingClosure: false) != nil
        }?.replacement
    }

    /// The parameters the parenthesized arguments take, a pack spread over as many as it takes, or `nil` when the
    /// labels don't fit. A trailing closure takes the last parameter, which must be a closure.
    private func parameters(matching labels: [String?], trailingClosure: Bool) -> [Parameter]? {
        var parameters = self.parameters
        if trailingClosure {
            guard case .closure = parameters.last else { return nil }
            parameters.removeLast()
        }
        if let pack = parameters.firstIndex(of: .pack) {
            let spread = labels.count - (parameters.count - 1)
            guard spread >= 1 else { return nil }
            parameters.replaceSubrange(pack...pack, with: repeatElement(.value(nil), count: spread))
        }
        guard parameters.count == labels.count,
            zip(parameters, labels).allSatisfy({ $0.label == $1 })
        else { return nil }
        return parameters
    }
}
