import Strata

extension PostgresTextLookups {
    /// One `SELECT DISTINCT` of a pre-pass: the values of `keys` in `table`'s rows (where `filter` holds), tagged
    /// with the call or collation they are for.
    private typealias Branch = (index: Int, keys: [SQLFragment], table: Schema.Entity, filter: SQLFragment?)

    /// Computes the answers for a query's `leaves` from a pre-pass: a `UNION ALL` of `SELECT DISTINCT`s, one per
    /// call (or ranked operand) and entity table, reading the values of its varying arguments, spelled by `writer`
    /// in the scope of that table. A call with an exact SQL branch reads only the rows where some text argument is
    /// not simple (all rows when a constant argument isn't); a ranked operand reads every value (of the rows the
    /// query selects, for a ranked prefix). NULLs are left out: a call on NULL gives NULL without a lookup. A call
    /// whose arguments hold another (`lowercase(title) CONTAINS[c] "é"`) is read in a later round, spelled with the
    /// answers of the first: one round trip per level of nesting.
    ///
    /// - Parameter query: runs the pre-pass (in the same snapshot as the query it prepares).
    /// - Throws: what `query` throws; `StrataError.storeFailure` where SQLite would fail the query (an invalid
    ///   `MATCHES` expression meeting a row); `StrataError.unsupportedPredicate` for a NUL constant.
    init(
        _ leaves: PostgresTextLeaves, writer: PostgresQueryWriter, query: (SQLFragment) throws -> PostgresResult
    ) throws {
        var remaining = leaves.calls
        var rankedTexts: [QueryOrdering.Collation: [String]] = [:]
        var rankedRemaining = leaves.ranked.keys.sorted { "\($0)" < "\($1)" }.flatMap { collation in
            (leaves.ranked[collation] ?? []).map { (collation: collation, operand: $0) }
        }
        for collation in leaves.ranked.keys { rankedTexts[collation] = [] }
        while !remaining.isEmpty || !rankedRemaining.isEmpty {
            let isReady = { (call: PostgresTextLeaves.Call) in !hasUnanswered(.and(call.arguments), in: call.entity) }
            let isRankable = {
                (ranked: (collation: QueryOrdering.Collation, operand: PostgresTextLeaves.RankedOperand)) in
                !hasUnanswered(ranked.operand.expression, in: ranked.operand.entity)
            }
            let ready = remaining.filter(isReady)
            let rankedReady = rankedRemaining.filter(isRankable)
            guard !ready.isEmpty || !rankedReady.isEmpty else { break }
            remaining.removeAll(where: isReady)
            rankedRemaining.removeAll(where: isRankable)
            var answering = writer
            answering.lookups = self
            try answer(
                ready, rankedReady, prefix: leaves.rankedPrefix, writer: answering, query: query, texts: &rankedTexts)
        }
        for (collation, texts) in rankedTexts {
            let ordering = Self.ordering(of: collation)
            if let prefix = leaves.rankedPrefix, prefix.collation == collation {
                ranks[collation] = Self.prefixRanks(
                    texts, first: prefix.count, ordering: ordering, ascending: prefix.ascending)
            } else {
                ranks[collation] = Ranks(table: Self.rankTable(texts, ordering: ordering), others: nil)
            }
        }
    }

    /// Whether `expression` holds a text call not answered yet.
    private func hasUnanswered(_ expression: QueryExpression, in entity: Schema.Entity) -> Bool {
        PostgresTextLeaves(condition: expression, orderings: [], entity: entity).calls.contains {
            calls[$0.node] == nil
        }
    }

    /// One round of the pre-pass: answers `ready` calls and gathers the values of `ranked` operands into `texts`.
    private mutating func answer(
        _ ready: [PostgresTextLeaves.Call],
        _ ranked: [(collation: QueryOrdering.Collation, operand: PostgresTextLeaves.RankedOperand)],
        prefix: PostgresTextLeaves.RankedPrefix?, writer: PostgresQueryWriter,
        query: (SQLFragment) throws -> PostgresResult,
        texts: inout [QueryOrdering.Collation: [String]]
    ) throws {
        var branches: [Branch] = []
        var pending: [Int: (call: PostgresTextLeaves.Call, varying: [Int])] = [:]
        var indexes: [QueryExpression: Int] = [:]
        var seen: Set<String> = []
        for call in ready {
            let index = indexes[call.node] ?? indexes.count
            indexes[call.node] = index
            guard seen.insert("\(index) \(call.entity.name)").inserted else { continue }
            let varying = call.arguments.indices.filter { if case .value = call.arguments[$0] { false } else { true } }
            // Constant arguments only, or a NULL one: the answer is the same for every row.
            guard !varying.isEmpty, !call.arguments.contains(.value(.null)) else {
                calls[call.node] = .constant(varying.isEmpty ? try Self.answer(call, call.arguments) : .null)
                continue
            }
            pending[index] = (call, varying)
            let keys = try varying.map { try writer.key(call.arguments[$0], in: .root) }
            branches.append((index, keys, call.entity, try Self.simpleFilter(call, varying: varying, writer: writer)))
        }
        var collations: [Int: QueryOrdering.Collation] = [:]
        var tags: [QueryOrdering.Collation: Int] = [:]
        for (collation, operand) in ranked {
            if case .value(let value) = operand.expression {
                if value != .null { texts[collation, default: []].append(Self.text(value)) }
                continue
            }
            let tag = tags[collation] ?? indexes.count + tags.count
            tags[collation] = tag
            collations[tag] = collation
            guard seen.insert("\(tag) \(operand.entity.name) \(operand.expression)").inserted else { continue }
            // A ranked prefix reads the values of the rows the query selects only.
            let narrowing = try prefix.flatMap { $0.collation == collation ? $0.condition : nil }.map {
                try writer.condition($0)
            }
            branches.append((tag, [try writer.key(operand.expression, in: .root)], operand.entity, narrowing))
        }
        var answers: [Int: [(keys: [String], value: String)]] = [:]
        if !branches.isEmpty {
            let result = try query(Self.prePass(branches))
            var evaluators: [Int: QueryEvaluator] = [:]
            for row in 0..<result.count {
                let index = Int(result.int64(row: row, column: 0))
                if let (call, varying) = pending[index].map({ ($0.call, $0.varying) }) {
                    let keys = varying.indices.map { result.text(row: row, column: Int32($0 + 1)) ?? "" }
                    var arguments = call.arguments
                    for (offset, position) in varying.enumerated() { arguments[position] = .value(.text(keys[offset])) }
                    let evaluator = evaluators[index] ?? QueryEvaluator(entity: call.entity, values: { _ in .null })
                    evaluators[index] = evaluator
                    let answer = try evaluator.evaluate(.function(call.function, arguments))
                    answers[index, default: []].append((keys, Self.json(answer, as: ResultType(call.function))))
                } else if let collation = collations[index], let text = result.text(row: row, column: 1) {
                    texts[collation, default: []].append(text)
                }
            }
        }
        for (index, (call, _)) in pending {
            calls[call.node] = .table(Self.object(answers[index]?[...] ?? [], depth: 0))
        }
    }

    /// The pre-pass statement: the branches' `SELECT DISTINCT`s, padded with NULLs to the same width.
    private static func prePass(_ branches: [Branch]) -> SQLFragment {
        let width = branches.map(\.keys.count).max() ?? 1
        let selects = branches.map { branch in
            var sql =
                SQLFragment(sql: "SELECT DISTINCT \(branch.index)::bigint, ")
                + .joined(
                    branch.keys + Array(repeating: SQLFragment(sql: "NULL::text"), count: width - branch.keys.count),
                    separator: ", ")
                + SQLFragment(sql: " FROM ") + .identifier(branch.table.name) + SQLFragment(sql: " WHERE ")
            sql.append(
                .joined(
                    branch.keys.map { $0 + SQLFragment(sql: " IS NOT NULL") } + (branch.filter.map { [$0] } ?? []),
                    separator: " AND "))
            return sql
        }
        return .joined(selects, separator: " UNION ALL ")
    }

    /// The pre-pass filter of a call with an exact branch: the rows where one of its varying text arguments is not
    /// simple; `nil` (every row) without an exact branch or when a constant text argument is not simple.
    private static func simpleFilter(
        _ call: PostgresTextLeaves.Call, varying: [Int], writer: PostgresQueryWriter
    ) throws -> SQLFragment? {
        guard PostgresTextLeaves.hasExactBranch(call.function, call.arguments) else { return nil }
        let positions = PostgresTextLeaves.textPositions(of: call.function) ?? []
        var tests: [SQLFragment] = []
        for position in positions where position < call.arguments.count {
            if case .value(let value) = call.arguments[position] {
                guard isSimple(value) else { return nil }
            } else {
                tests.append(
                    SQLFragment(sql: "strata_is_simple(") + (try writer.value(call.arguments[position], in: .root))
                        + SQLFragment(sql: ")"))
            }
        }
        guard !tests.isEmpty else { return nil }
        return SQLFragment(sql: "NOT (") + .joined(tests, separator: " AND ") + SQLFragment(sql: ")")
    }

    /// Whether a constant is text the SQL functions compare exactly: ASCII without carriage returns (or not text).
    static func isSimple(_ value: StoredValue) -> Bool {
        guard case .text(let text) = value else { return true }
        return text.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    }

    /// A constant as the text key PostgreSQL's `::text` gives it.
    static func text(_ value: StoredValue) -> String {
        switch value {
        case .text(let text): text
        case .integer(let number): String(number)
        default: "\(value)"
        }
    }
}
