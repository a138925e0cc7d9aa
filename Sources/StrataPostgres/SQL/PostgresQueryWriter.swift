import Strata

/// Spells a store-neutral `QueryExpression` as PostgreSQL, whose conditions are `boolean` where SQLite's are
/// integers: each node is written either as a condition or as a value, converting between the two where the tree
/// mixes them (`(x <> 0)`, `(c)::int4`). Equality is null-safe (`IS NOT DISTINCT FROM`), Swift's string order is
/// NFC under the `C` collation. Text functions and the localized collations are exact SQL for simple text and
/// answers Swift computed for the rest (``lookups``, see `PostgresQueryWriter+Lookups`); forms without an exact
/// PostgreSQL equivalent throw `StrataError.unsupportedPredicate` instead of matching differently from SQLite.
struct PostgresQueryWriter {
    let dialect = PostgreSQLDialect()
    /// The answers computed for the text values of the query being spelled (none outside a fetch, count or batch
    /// delete, where non-simple text is refused).
    var lookups = PostgresTextLookups()

    /// `expression` as a boolean condition.
    func condition(_ expression: QueryExpression, in scope: SQLScope = .root) throws -> SQLFragment {
        guard Self.isCondition(expression) else {
            if case .value(let value) = expression, case .integer(let number) = value {
                return SQLFragment(sql: number != 0 ? "TRUE" : "FALSE")
            }
            return paren(try self.value(expression, in: scope) + SQLFragment(sql: " <> 0"))
        }
        switch expression {
        case .constant(let truth):
            return SQLFragment(sql: truth ? "TRUE" : "FALSE")
        case .equal(let left, let right):
            return try comparison(left, "IS NOT DISTINCT FROM", right, scope)
        case .notEqual(let left, let right):
            return try comparison(left, "IS DISTINCT FROM", right, scope)
        case .compare(let left, let op, let right):
            return try comparison(left, op.rawValue, right, scope)
        case .and(let operands):
            guard !operands.isEmpty else { return SQLFragment(sql: "TRUE") }
            return paren(.joined(try operands.map { try condition($0, in: scope) }, separator: " AND "))
        case .or(let operands):
            guard !operands.isEmpty else { return SQLFragment(sql: "FALSE") }
            return paren(.joined(try operands.map { try condition($0, in: scope) }, separator: " OR "))
        case .not(let operand):
            return SQLFragment(sql: "(NOT ") + (try condition(operand, in: scope)) + SQLFragment(sql: ")")
        case .isNull(let operand):
            return paren(try value(operand, in: scope) + SQLFragment(sql: " IS NULL"))
        case .in(let operand, let list):
            guard !list.isEmpty else { return SQLFragment(sql: "FALSE") }
            let collation = Self.collation(of: operand)
            let items = try list.map { try operandValue($0, collation, scope) }
            return paren(
                try value(operand, in: scope) + SQLFragment(sql: " IN (") + .joined(items, separator: ", ")
                    + SQLFragment(sql: ")"))
        case .between(let operand, let lower, let upper):
            let collation = Self.collation(of: operand)
            return paren(
                try value(operand, in: scope) + SQLFragment(sql: " BETWEEN ") + operandValue(lower, collation, scope)
                    + SQLFragment(sql: " AND ") + operandValue(upper, collation, scope))
        case .exists(let query):
            return SQLFragment(sql: "EXISTS ")
                + (try scope.subquery(
                    through: query.path.hops, condition: query.condition, spell: { try condition($0, in: $1) }
                ) { _ in
                    SQLFragment(sql: "1")
                })
        case .function(.coalesce, let arguments):
            return .function(.coalesce) + SQLFragment(sql: "(")
                + .joined(try arguments.map { try condition($0, in: scope) }, separator: ", ") + SQLFragment(sql: ")")
        case .function(.compositeContains(let path), let arguments):
            return try compositeContains(path, arguments, scope)
        case .function(let function, let arguments):
            return try call(function, arguments, scope)
        case .case(let when, let then, let otherwise):
            return SQLFragment(sql: "CASE WHEN ") + (try condition(when, in: scope)) + SQLFragment(sql: " THEN ")
                + (try condition(then, in: scope)) + SQLFragment(sql: " ELSE ") + (try condition(otherwise, in: scope))
                + SQLFragment(sql: " END")
        default:
            return paren(try value(expression, in: scope) + SQLFragment(sql: " <> 0"))
        }
    }

    /// `expression` as a value (a condition becomes 1, 0 or NULL, as SQLite gives it).
    func value(_ expression: QueryExpression, in scope: SQLScope = .root) throws -> SQLFragment {
        guard !Self.isCondition(expression) else {
            return SQLFragment(sql: "(") + (try condition(expression, in: scope)) + SQLFragment(sql: ")::int4")
        }
        switch expression {
        case .column(let name):
            return scope.column(name)
        case .value(.text(let text)) where text.utf8.contains(0):
            // PostgreSQL text can't hold NUL, so no stored text equals, contains or orders like this constant.
            throw StrataError.unsupportedPredicate(
                expression: text.debugDescription,
                reason: "PostgreSQL text can't hold U+0000 (NUL); this constant can't be compared there")
        case .value(let value):
            return .binding(value)
        case .arithmetic(let op, let left, let right, let bounds?):
            return try call(
                .checkedArithmetic(op),
                [left, right, .value(.integer(bounds.lowerBound)), .value(.integer(bounds.upperBound))], scope)
        case .arithmetic(let op, let left, let right, nil):
            let divisor = try value(right, in: scope)
            let right =
                op == .divide || op == .remainder
                ? SQLFragment(sql: "NULLIF(") + divisor + SQLFragment(sql: ", 0)") : divisor
            return paren(try value(left, in: scope) + SQLFragment(sql: " \(op.rawValue) ") + right)
        case .function(.compositeField(let path), let arguments):
            return try compositeField(path, arguments, scope)
        case .function(.compositeJSON, let arguments):
            return SQLFragment(sql: "(") + (try value(arguments[0], in: scope)) + SQLFragment(sql: ")::jsonb")
        case .function(let function, let arguments):
            return try call(function, arguments, scope)
        case .case(let when, let then, let otherwise):
            return SQLFragment(sql: "CASE WHEN ") + (try condition(when, in: scope)) + SQLFragment(sql: " THEN ")
                + (try value(then, in: scope)) + SQLFragment(sql: " ELSE ") + (try value(otherwise, in: scope))
                + SQLFragment(sql: " END")
        case .collated(let operand, let collation):
            return try collated(value(operand, in: scope), collation)
        case .related(let path, let inner):
            return try scope.subquery(through: path.hops, condition: nil, spell: { try condition($0, in: $1) }) {
                try value(inner, in: $0)
            }
        case .relatedCount(let query):
            return try scope.subquery(
                through: query.path.hops, condition: query.condition, spell: { try condition($0, in: $1) }
            ) { _ in
                SQLFragment(sql: "count(*)")
            }
        case .relatedAggregate(let aggregate, let query, let inner):
            return try scope.subquery(
                through: query.path.hops, condition: query.condition, spell: { try condition($0, in: $1) }
            ) {
                aggregateCall(aggregate, of: try value(inner, in: $0))
            }
        default:
            return SQLFragment(sql: "(") + (try condition(expression, in: scope)) + SQLFragment(sql: ")::int4")
        }
    }

    /// An aggregate of `operand`, as PostgreSQL computes what SQLite's aggregate of the same name gives.
    func aggregateCall(_ aggregate: QueryAggregate, of operand: SQLFragment) -> SQLFragment {
        switch aggregate {
        // PostgreSQL sums bigints exactly as numeric: the cast fails the query where the sum leaves Int64.
        case .integerSum:
            return SQLFragment(sql: "sum(") + operand + SQLFragment(sql: ")::bigint")
        // The exact sum rounded once, as SQLite's strata_real_sum and strata_real_avg (PostgresFunctions+Sums).
        case .floatingSum:
            return SQLFragment(sql: "sum(strata_real_exact(") + operand + SQLFragment(sql: "))::float8")
        case .floatingAverage:
            return SQLFragment(sql: "sum(strata_real_exact(") + operand + SQLFragment(sql: "))::float8 / count(")
                + operand + SQLFragment(sql: ")")
        default:
            return SQLFragment(sql: Self.name(of: aggregate) + "(") + operand + SQLFragment(sql: ")")
        }
    }

    /// A sort key: the value under its collation, with NULLs first ascending as SQLite orders them. A key that
    /// can't be NULL (`nullable: false`) gets no `NULLS` clause, so an ordinary B-tree index on it can give the order.
    func orderingKey(_ ordering: QueryOrdering, nullable: Bool = true) throws -> SQLFragment {
        let direction = ordering.ascending ? " ASC" : " DESC"
        return try operandValue(ordering.expression, ordering.collation, .root)
            + SQLFragment(sql: direction + (nullable ? (ordering.ascending ? " NULLS FIRST" : " NULLS LAST") : ""))
    }

    /// Whether a node is a condition (boolean) rather than a value.
    static func isCondition(_ expression: QueryExpression) -> Bool {
        switch expression {
        case .equal, .notEqual, .compare, .and, .or, .not, .constant, .isNull, .in, .between, .exists: true
        case .function(.coalesce, let arguments): arguments.first.map(isCondition) ?? false
        case .function(let function, _): returnsCondition(function)
        case .case(_, let then, _): isCondition(then)
        default: false
        }
    }

    private static func returnsCondition(_ function: QueryFunction) -> Bool {
        switch function {
        case .contains, .beginsWith, .endsWith, .localizedStandardContains, .characterContains, .characterBeginsWith,
            .like, .matches,
            .compositeContains:
            true
        case .compare, .characterCount, .coalesce, .checkedArithmetic, .floatingArithmetic, .fold, .power,
            .compositeField,
            .compositeJSON:
            false
        }
    }

    private func comparison(
        _ left: QueryExpression, _ op: String, _ right: QueryExpression, _ scope: SQLScope
    ) throws -> SQLFragment {
        let collation = Self.collation(of: left) ?? Self.collation(of: right)
        return paren(
            try operandValue(left, collation, scope) + SQLFragment(sql: " \(op) ")
                + operandValue(right, collation, scope))
    }

    /// An operand of a comparison, `IN` or `BETWEEN` under `collation`: a ranked collation ranks the operand
    /// itself (once, whether or not it carries the `collated` wrapper).
    private func operandValue(
        _ operand: QueryExpression, _ collation: QueryOrdering.Collation?, _ scope: SQLScope
    ) throws -> SQLFragment {
        guard PostgresTextLeaves.isRanked(collation), let collation else {
            return try collated(value(operand, in: scope), collation)
        }
        return try ranked(value(PostgresTextLeaves.uncollated(operand), in: scope), collation)
    }

    private static func collation(of expression: QueryExpression) -> QueryOrdering.Collation? {
        if case .collated(_, let collation) = expression { return collation }
        return nil
    }

    /// A value under a collation: byte order is what text columns (`COLLATE "C"`) compare by already; Swift's order
    /// is the `strata_swift` key (NFC's UTF-8 bytes for text, the value itself for other types); the localized
    /// orders are the value's rank computed for the query.
    private func collated(_ fragment: SQLFragment, _ collation: QueryOrdering.Collation?) throws -> SQLFragment {
        switch collation {
        case nil, .binary?: return fragment
        case .swift?: return SQLFragment(sql: "strata_swift(") + fragment + SQLFragment(sql: ")")
        case let ranked?: return try self.ranked(fragment, ranked)
        }
    }

    private func call(
        _ function: QueryFunction, _ arguments: [QueryExpression], _ scope: SQLScope
    ) throws -> SQLFragment {
        if PostgresTextLeaves.isInexact(function, arguments) { return try textCall(function, arguments, scope) }
        return SQLFragment(sql: dialect.functionName(for: function) + "(")
            + .joined(try arguments.map { try value($0, in: scope) }, separator: ", ") + SQLFragment(sql: ")")
    }

    /// A composite field: `#>>` on the column read as `jsonb`, cast to the type the field's scalar has as a column
    /// (`C`-collated text, `bigint`, `float8` — which reads `"NaN"` and `"+Infinity"` — and a Boolean as 1 or 0);
    /// a nested value as `jsonb`, which compares by value.
    private func compositeField(
        _ path: CompositeFieldPath, _ arguments: [QueryExpression], _ scope: SQLScope
    ) throws -> SQLFragment {
        let json = SQLFragment(sql: "((") + (try value(arguments[0], in: scope)) + SQLFragment(sql: ")::jsonb")
        guard path.scalar != .json else { return json + SQLFragment(sql: " #> \(path.postgresLiteral))") }
        if path.scalar == .elementCount {
            // `jsonb_array_length` fails on anything but an array; SQLite's `json_array_length` gives 0.
            let element = json + SQLFragment(sql: " #> \(path.postgresLiteral))")
            return SQLFragment(sql: "(CASE WHEN ") + element + SQLFragment(sql: " IS NULL THEN NULL WHEN jsonb_typeof(")
                + element
                + SQLFragment(sql: ") = 'array' THEN jsonb_array_length(") + element + SQLFragment(sql: ") ELSE 0 END)")
        }
        let text = json + SQLFragment(sql: " #>> \(path.postgresLiteral))")
        switch path.scalar {
        case .text, .json, .elementCount: return SQLFragment(sql: "(") + text + SQLFragment(sql: " COLLATE \"C\")")
        case .integer: return SQLFragment(sql: "(") + text + SQLFragment(sql: ")::bigint")
        case .real: return SQLFragment(sql: "(") + text + SQLFragment(sql: ")::float8")
        case .boolean: return SQLFragment(sql: "(") + text + SQLFragment(sql: ")::boolean::int4")
        }
    }

    /// Whether an array inside a composite attribute has an element: each element's text cast as the field's
    /// scalar, text compared as Swift compares (`strata_swift`, NFC).
    private func compositeContains(
        _ path: CompositeFieldPath, _ arguments: [QueryExpression], _ scope: SQLScope
    ) throws -> SQLFragment {
        let array =
            SQLFragment(sql: "((") + (try value(arguments[0], in: scope))
            + SQLFragment(sql: ")::jsonb #> \(path.postgresLiteral))")
        let element = try value(arguments[1], in: scope)
        let compared: SQLFragment =
            switch path.scalar {
            case .text, .json, .elementCount:
                SQLFragment(sql: "strata_swift(e.v COLLATE \"C\") = strata_swift(") + element + SQLFragment(sql: ")")
            case .integer: SQLFragment(sql: "e.v::bigint = ") + element
            case .real: SQLFragment(sql: "e.v::float8 = ") + element
            case .boolean: SQLFragment(sql: "e.v::boolean::int4 = ") + element
            }
        return SQLFragment(sql: "EXISTS (SELECT 1 FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(") + array
            + SQLFragment(sql: ") = 'array' THEN ") + array + SQLFragment(sql: " END) AS e(v) WHERE ") + compared
            + SQLFragment(sql: ")")
    }

    private func paren(_ fragment: SQLFragment) -> SQLFragment {
        SQLFragment(sql: "(") + fragment + SQLFragment(sql: ")")
    }

    private static func name(of aggregate: QueryAggregate) -> String {
        switch aggregate {
        // PostgreSQL's NaN sorts above every number, as Strata's does, so min and max agree as they are.
        case .sum, .integerSum, .floatingSum: "sum"
        case .average, .floatingAverage: "avg"
        case .minimum, .floatingMinimum: "min"
        case .maximum, .floatingMaximum: "max"
        }
    }
}
