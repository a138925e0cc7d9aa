/// The names of the SQL functions Strata defines in every store for the query functions (SQLite registers them on
/// each connection, PostgreSQL creates them in the store's schema), written once so that the stores' dialects and
/// definitions can't disagree.
package enum StrataSQLFunction {
    /// `strata_fold(text, flags)`.
    package static let fold = "strata_fold"
    /// `strata_contains(haystack, needle, flags)`.
    package static let contains = "strata_contains"
    /// `strata_beginswith(text, prefix, flags)`.
    package static let beginsWith = "strata_beginswith"
    /// `strata_endswith(text, suffix, flags)`.
    package static let endsWith = "strata_endswith"
    /// `strata_like(text, pattern, flags)`.
    package static let like = "strata_like"
    /// `strata_matches(text, regex, flags)`.
    package static let matches = "strata_matches"
    /// `strata_localized_standard_contains(haystack, needle)`.
    package static let localizedStandardContains = "strata_localized_standard_contains"
    /// `strata_compare(a, b, ordering)`.
    package static let compare = "strata_compare"
    /// `strata_character_count(text)`.
    package static let characterCount = "strata_character_count"
    /// `strata_character_contains(text, other)`.
    package static let characterContains = "strata_character_contains"
    /// `strata_character_beginswith(text, prefix)`.
    package static let characterBeginsWith = "strata_character_beginswith"
    /// `strata_power(base, exponent)`: the format language's `**`.
    package static let power = "strata_power"

    /// The checked integer function for an arithmetic operator: `strata_int_add`, `_sub`, `_mul`, `_div`, `_rem`.
    package static func checkedArithmetic(_ op: QueryExpression.ArithmeticOperator) -> String {
        "strata_int_" + suffix(op)
    }

    /// The IEEE floating-point function for an arithmetic operator (`strata_real_…`; `strata_float_…`, rounded to
    /// `Float`, with `single`). `%` is never floating point in a predicate: it is spelled as division.
    package static func floatingArithmetic(_ op: QueryExpression.ArithmeticOperator, single: Bool) -> String {
        (single ? "strata_float_" : "strata_real_") + suffix(op == .remainder ? .divide : op)
    }

    private static func suffix(_ op: QueryExpression.ArithmeticOperator) -> String {
        switch op {
        case .add: "add"
        case .subtract: "sub"
        case .multiply: "mul"
        case .divide: "div"
        case .remainder: "rem"
        }
    }
}

extension QueryFunction {
    /// The SQL function Strata defines for this query function (``StrataSQLFunction``); `nil` for those each
    /// engine spells with its own (`COALESCE`, JSON access).
    package var definedName: String? {
        switch self {
        case .contains: StrataSQLFunction.contains
        case .beginsWith: StrataSQLFunction.beginsWith
        case .endsWith: StrataSQLFunction.endsWith
        case .localizedStandardContains: StrataSQLFunction.localizedStandardContains
        case .compare: StrataSQLFunction.compare
        case .characterCount: StrataSQLFunction.characterCount
        case .characterContains: StrataSQLFunction.characterContains
        case .characterBeginsWith: StrataSQLFunction.characterBeginsWith
        case .fold: StrataSQLFunction.fold
        case .like: StrataSQLFunction.like
        case .matches: StrataSQLFunction.matches
        case .power: StrataSQLFunction.power
        case .checkedArithmetic(let op): StrataSQLFunction.checkedArithmetic(op)
        case .floatingArithmetic(let op, let single): StrataSQLFunction.floatingArithmetic(op, single: single)
        case .coalesce, .compositeField, .compositeJSON, .compositeContains: nil
        }
    }
}
