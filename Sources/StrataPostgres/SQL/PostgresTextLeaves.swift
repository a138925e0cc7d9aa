import Strata

/// The text nodes of one query whose PostgreSQL spelling is exact only for simple text (ASCII without carriage
/// returns), found with the entity whose table each reads: the fetched entity at the top, the destination inside
/// `related`, `exists`, `relatedCount` and `relatedAggregate` (a `QueryExpression` has no outer references, so
/// every node reads its own scope's table only).
///
/// - A text function call (`contains`/`beginsWith`/`endsWith` with their flags, `localizedStandardContains`,
///   the Character functions, `characterCount`, `LIKE`, `MATCHES`, `fold`, and `compare` under any ordering but
///   Swift's) is a *call*: ``PostgresTextLookups`` holds its answers for the non-simple values it meets.
/// - A comparison, `IN` or `BETWEEN` under the `localizedStandard`, `localized` or `caseInsensitive` collation,
///   and a sort key under one, is *ranked*: each operand's values are ranked in Swift under that collation.
struct PostgresTextLeaves {
    /// One call, in the scope of `entity`.
    struct Call {
        var node: QueryExpression
        var function: QueryFunction
        var arguments: [QueryExpression]
        var entity: Schema.Entity
    }

    /// One operand compared or sorted under a ranked collation, in the scope of `entity`.
    struct RankedOperand {
        var expression: QueryExpression
        var entity: Schema.Entity
    }

    /// A sort whose first key is ranked, under a limit: only the first `count` distinct values of the rows the
    /// condition selects need ranks of their own; every other value shares the rank after them.
    struct RankedPrefix {
        var collation: QueryOrdering.Collation
        var count: Int
        var ascending: Bool
        /// The query's condition, free of text leaves, so the pre-pass reads exactly the rows the query does.
        var condition: QueryExpression?
    }

    private(set) var calls: [Call] = []
    private(set) var ranked: [QueryOrdering.Collation: [RankedOperand]] = [:]
    private(set) var rankedPrefix: RankedPrefix?

    /// The leaves of a query on `entity` with `condition` and sort keys `orderings`.
    init(condition: QueryExpression?, orderings: [QueryOrdering], entity: Schema.Entity) {
        if let condition { collect(condition, in: entity) }
        for ordering in orderings {
            collect(ordering.expression, in: entity)
            if Self.isRanked(ordering.collation) {
                ranked[ordering.collation, default: []].append(
                    RankedOperand(expression: Self.uncollated(ordering.expression), entity: entity))
            }
        }
    }

    /// The leaves of a fetch: as a query's, and when its first sort key is ranked, under a limit, over rows its
    /// condition selects without text leaves of its own, with ranks for the first `limit + offset` values only.
    init(_ fetch: StoreFetch) {
        self.init(condition: fetch.condition, orderings: fetch.ordering, entity: fetch.entity)
        guard let rows = fetch.rowsToRead, fetch.keyFilter == nil, fetch.startAfterKey == nil, calls.isEmpty,
            ranked.count == 1,
            let first = fetch.ordering.first, ranked[first.collation]?.count == 1
        else { return }
        rankedPrefix = RankedPrefix(
            collation: first.collation, count: rows + (fetch.statementOffset ?? 0), ascending: first.ascending,
            condition: fetch.condition)
    }

    /// Whether the query has no such node, and runs as it is spelled.
    var isEmpty: Bool { calls.isEmpty && ranked.isEmpty }

    /// Whether a collation orders text by Foundation's localized or case-insensitive comparison.
    static func isRanked(_ collation: QueryOrdering.Collation?) -> Bool {
        switch collation {
        case .localizedStandard?, .localized?, .caseInsensitive?: true
        case .binary?, .swift?, nil: false
        }
    }

    /// The argument positions that hold text for a text function; `nil` for other functions.
    static func textPositions(of function: QueryFunction) -> [Int]? {
        switch function {
        case .contains, .beginsWith, .endsWith, .like, .matches, .localizedStandardContains, .characterContains,
            .characterBeginsWith, .compare:
            [0, 1]
        case .characterCount, .fold:
            [0]
        case .coalesce, .checkedArithmetic, .floatingArithmetic, .power, .compositeField, .compositeJSON,
            .compositeContains:
            nil
        }
    }

    /// Whether a call's SQL is exact for simple text only: every text function but `compare` under Swift's
    /// ordering (NFC bytes, exact for all text).
    static func isInexact(_ function: QueryFunction, _ arguments: [QueryExpression]) -> Bool {
        guard textPositions(of: function) != nil else { return false }
        if case .compare = function {
            return arguments.count < 3 || arguments[2] != .value(.integer(StrataStringOrdering.swift.rawValue))
        }
        return true
    }

    /// Whether a call has SQL that is exact for simple text: all but `MATCHES` (PostgreSQL's regular expressions
    /// are not ICU's) and `compare` under orderings other than the lexical one.
    static func hasExactBranch(_ function: QueryFunction, _ arguments: [QueryExpression]) -> Bool {
        switch function {
        case .matches: false
        case .compare: arguments.count == 3 && arguments[2] == .value(.integer(StrataStringOrdering.lexical.rawValue))
        default: true
        }
    }

    /// The operand itself, without a `collated` wrapper.
    static func uncollated(_ expression: QueryExpression) -> QueryExpression {
        if case .collated(let operand, _) = expression { return uncollated(operand) }
        return expression
    }

    /// The collation a `collated` wrapper names; `nil` for any other node.
    static func collation(of expression: QueryExpression) -> QueryOrdering.Collation? {
        if case .collated(_, let collation) = expression { return collation }
        return nil
    }

    private mutating func collect(_ expression: QueryExpression, in entity: Schema.Entity) {
        switch expression {
        case .column, .value, .constant:
            return
        case .equal(let left, let right), .notEqual(let left, let right), .compare(let left, _, let right):
            rank([left, right], under: Self.collation(of: left) ?? Self.collation(of: right), in: entity)
            collect(left, in: entity)
            collect(right, in: entity)
        case .arithmetic(_, let left, let right, _):
            collect(left, in: entity)
            collect(right, in: entity)
        case .function(let function, let arguments):
            if Self.isInexact(function, arguments) {
                calls.append(Call(node: expression, function: function, arguments: arguments, entity: entity))
            }
            for argument in arguments { collect(argument, in: entity) }
        case .and(let operands), .or(let operands):
            for operand in operands { collect(operand, in: entity) }
        case .not(let operand), .isNull(let operand), .collated(let operand, _):
            collect(operand, in: entity)
        case .in(let operand, let list):
            rank([operand] + list, under: Self.collation(of: operand), in: entity)
            for member in [operand] + list { collect(member, in: entity) }
        case .between(let operand, let lower, let upper):
            rank([operand, lower, upper], under: Self.collation(of: operand), in: entity)
            for member in [operand, lower, upper] { collect(member, in: entity) }
        case .case(let when, let then, let otherwise):
            for member in [when, then, otherwise] { collect(member, in: entity) }
        case .related(let path, let inner):
            collect(inner, in: path.hops.last?.destination ?? entity)
        case .exists(let query), .relatedCount(let query):
            if let condition = query.condition { collect(condition, in: query.path.hops.last?.destination ?? entity) }
        case .relatedAggregate(_, let query, let inner):
            let destination = query.path.hops.last?.destination ?? entity
            if let condition = query.condition { collect(condition, in: destination) }
            collect(inner, in: destination)
        }
    }

    private mutating func rank(
        _ operands: [QueryExpression], under collation: QueryOrdering.Collation?, in entity: Schema.Entity
    ) {
        guard let collation, Self.isRanked(collation) else { return }
        ranked[collation, default: []].append(
            contentsOf: operands.map { RankedOperand(expression: Self.uncollated($0), entity: entity) })
    }
}
