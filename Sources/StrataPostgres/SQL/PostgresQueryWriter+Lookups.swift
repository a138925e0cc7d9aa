import Strata

/// The spelling of text calls and ranked collations (see ``PostgresTextLeaves``): exact SQL for simple text, the
/// answers Swift computed (``PostgresTextLookups``) for the rest.
///
/// A call is `CASE WHEN <its varying text arguments are simple or NULL> THEN <the exact SQL function> ELSE
/// <lookup> END`, so NULL arguments give NULL as on SQLite. A value the lookup doesn't hold (the row changed after
/// the pre-pass) fails the statement with SQLSTATE `40001`, a serialization failure that a save runs again, never
/// another answer; without a lookup at all (a query spelled without its pre-pass) non-simple text fails it with
/// `SA001`, a refusal. `strata_text_unanswered`, which raises, is `VOLATILE`, so the planner never evaluates it
/// ahead of the rows.
extension PostgresQueryWriter {
    /// A lookup key: `(expression)::text`.
    func key(_ expression: QueryExpression, in scope: SQLScope) throws -> SQLFragment {
        SQLFragment(sql: "(") + (try value(expression, in: scope)) + SQLFragment(sql: ")::text")
    }

    /// A text function call (``PostgresTextLeaves/isInexact(_:_:)``).
    func textCall(_ function: QueryFunction, _ arguments: [QueryExpression], _ scope: SQLScope) throws -> SQLFragment {
        let type = PostgresTextLookups.ResultType(function)
        let positions = PostgresTextLeaves.textPositions(of: function) ?? []
        let hasExactBranch = PostgresTextLeaves.hasExactBranch(function, arguments)
        switch lookups.calls[.function(function, arguments)] {
        case .constant(let answer)?:
            return constant(answer, type)
        case .table(let json)?:
            let varying = arguments.filter { if case .value = $0 { false } else { true } }
            let keys = try varying.map { try key($0, in: scope) }
            var lookup = SQLFragment(sql: "((") + .binding(.text(json)) + SQLFragment(sql: "::jsonb")
            for (offset, key) in keys.enumerated() {
                lookup.append(sql: offset == keys.count - 1 ? " ->> " : " -> ")
                lookup.append(key)
            }
            lookup.append(sql: type == .text ? ") COLLATE \"C\")" : ")::\(type.sqlName))")
            let answer =
                SQLFragment(sql: "COALESCE(") + lookup + SQLFragment(sql: ", ") + unanswered(keys, type, state: "40001")
                + SQLFragment(sql: ")")
            let constantsSimple = positions.allSatisfy { position in
                guard position < arguments.count, case .value(let value) = arguments[position] else { return true }
                return PostgresTextLookups.isSimple(value)
            }
            let tested = positions.filter { $0 < arguments.count && varying.contains(arguments[$0]) }
            guard hasExactBranch, constantsSimple, !tested.isEmpty else { return answer }
            return try simpleOrElse(tested.map { arguments[$0] }, function, arguments, scope, otherwise: answer)
        case nil:
            let texts = positions.filter { $0 < arguments.count }.map { arguments[$0] }
            let refused = unanswered(
                try texts.map { try key($0, in: scope) }, type, state: PostgresFunctions.unsupportedState)
            guard hasExactBranch else { return refused }
            return try simpleOrElse(texts, function, arguments, scope, otherwise: refused)
        }
    }

    /// A text value's rank under a ranked collation, from the query's lookup.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` when the query was spelled without its pre-pass.
    func ranked(_ fragment: SQLFragment, _ collation: QueryOrdering.Collation) throws -> SQLFragment {
        guard let ranks = lookups.ranks[collation] else {
            throw StrataError.unsupportedPredicate(
                expression: "\(collation) comparison",
                reason: "PostgreSQL compares \(collation) text only by ranks computed for the query")
        }
        let key = SQLFragment(sql: "(") + fragment + SQLFragment(sql: ")::text")
        let lookup =
            SQLFragment(sql: "((") + .binding(.text(ranks.table)) + SQLFragment(sql: "::jsonb ->> ") + key
            + SQLFragment(sql: ")::bigint)")
        guard let others = ranks.others else {
            return SQLFragment(sql: "COALESCE(") + lookup + SQLFragment(sql: ", ")
                + unanswered([key], .integer, state: "40001") + SQLFragment(sql: ")")
        }
        return SQLFragment(sql: "CASE WHEN ") + key + SQLFragment(sql: " IS NULL THEN NULL ELSE COALESCE(") + lookup
            + SQLFragment(sql: ", \(others)) END")
    }

    /// `CASE WHEN strata_is_simple(t1) AND … THEN <exact SQL> ELSE otherwise END`.
    private func simpleOrElse(
        _ texts: [QueryExpression], _ function: QueryFunction, _ arguments: [QueryExpression], _ scope: SQLScope,
        otherwise: SQLFragment
    ) throws -> SQLFragment {
        let tests = try texts.map {
            SQLFragment(sql: "strata_is_simple(") + (try value($0, in: scope)) + SQLFragment(sql: ")")
        }
        let exact = try exactCall(function, arguments, scope)
        return SQLFragment(sql: "CASE WHEN ") + .joined(tests, separator: " AND ") + SQLFragment(sql: " THEN ") + exact
            + SQLFragment(sql: " ELSE ") + otherwise + SQLFragment(sql: " END")
    }

    /// The exact SQL of a call on simple text: its SQL function, or for `LIKE` with a constant pattern PostgreSQL's
    /// own `LIKE`, the pattern translated here once instead of by `strata_like` on every row.
    private func exactCall(
        _ function: QueryFunction, _ arguments: [QueryExpression], _ scope: SQLScope
    ) throws -> SQLFragment {
        if case .like = function, arguments.count == 3, case .value(.text(let pattern)) = arguments[1],
            PostgresTextLookups.isSimple(.text(pattern)), case .value(.integer(let flags)) = arguments[2]
        {
            let translated = Self.likePattern(pattern)
            return SQLFragment(sql: "(strata_fold(") + (try value(arguments[0], in: scope))
                + SQLFragment(sql: ", \(flags)) LIKE ")
                + .binding(.text(flags & 1 == 1 ? translated.lowercased() : translated))
                + SQLFragment(sql: " COLLATE \"C\")")
        }
        return SQLFragment(sql: dialect.functionName(for: function) + "(")
            + .joined(try arguments.map { try value($0, in: scope) }, separator: ", ") + SQLFragment(sql: ")")
    }

    /// A Core Data `LIKE` pattern (`*`, `?`, a backslash making the next character literal) as PostgreSQL's (`%`, `_`,
    /// with `\` escaping), as `strata_like` translates it.
    static func likePattern(_ pattern: String) -> String {
        var translated = ""
        var escaping = false
        for scalar in pattern.unicodeScalars {
            if escaping {
                if scalar == "%" || scalar == "_" || scalar == "\\" { translated += "\\" }
                translated.unicodeScalars.append(scalar)
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else if scalar == "*" || scalar == "?" {
                translated += scalar == "*" ? "%" : "_"
            } else {
                if scalar == "%" || scalar == "_" { translated += "\\" }
                translated.unicodeScalars.append(scalar)
            }
        }
        return escaping ? translated + "\\\\" : translated
    }

    /// NULL when a key is NULL; otherwise the statement fails with SQLSTATE `state`.
    private func unanswered(_ keys: [SQLFragment], _ type: PostgresTextLookups.ResultType, state: String) -> SQLFragment
    {
        SQLFragment(sql: "strata_text_unanswered(ARRAY[") + .joined(keys, separator: ", ")
            + SQLFragment(sql: "]::text[], NULL::\(type.sqlName), '\(state)')")
    }

    /// An answer computed outright, as a typed SQL value.
    private func constant(_ answer: StoredValue, _ type: PostgresTextLookups.ResultType) -> SQLFragment {
        switch (answer, type) {
        case (.null, _): SQLFragment(sql: "NULL::\(type.sqlName)")
        case (.integer(let number), .boolean): SQLFragment(sql: number != 0 ? "TRUE" : "FALSE")
        case (.text, .text): SQLFragment(sql: "(") + .binding(answer) + SQLFragment(sql: "::text COLLATE \"C\")")
        default: SQLFragment(sql: "(") + .binding(answer) + SQLFragment(sql: "::\(type.sqlName))")
        }
    }
}
