import Strata

extension PostgresTextLookups {
    /// Computes the answers for a query's `leaves` from one pre-pass: a `UNION ALL` of `SELECT DISTINCT`s, one per
    /// call (or ranked operand) and entity table, reading the values of its varying arguments, spelled by `writer`
    /// in the scope of that table. A call with an exact SQL branch reads only the rows where some text argument is
    /// not simple (all rows when a constant argument isn't); a ranked operand reads every value. NULLs are left
    /// out: a call on NULL gives NULL without a lookup.
    ///
    /// - Parameter query: runs the pre-pass (in the same snapshot as the query it prepares).
    /// - Throws: what `query` throws; `StrataError.storeFailure` where SQLite would fail the query (an invalid
    ///   `MATCHES` expression meeting a row); `StrataError.unsupportedPredicate` for a NUL constant.
    init(_ leaves: PostgresTextLeaves, writer: PostgresQueryWriter, query: (SQLFragment) throws -> PostgresResult) throws {
        var branches: [(index: Int, keys: [SQLFragment], table: Schema.Entity, filter: SQLFragment?)] = []
        var pending: [Int: (call: PostgresTextLeaves.Call, varying: [Int])] = [:]
        var seen: [QueryExpression: Int] = [:]
        var entitiesSeen: Set<String> = []
        for call in leaves.calls {
            let index = seen[call.node] ?? seen.count
            seen[call.node] = index
            guard entitiesSeen.insert("\(index) \(call.entity.name)").inserted else { continue }
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
        var rankedTexts: [Int: (collation: QueryOrdering.Collation, texts: [String])] = [:]
        let collations = leaves.ranked.keys.sorted { "\($0)" < "\($1)" }
        for (offset, collation) in collations.enumerated() {
            let index = seen.count + offset
            rankedTexts[index] = (collation, [])
            // A ranked prefix reads the values of the rows the query selects only.
            let prefix = leaves.rankedPrefix.flatMap { $0.collation == collation ? $0 : nil }
            let narrowing = try prefix?.condition.map { try writer.condition($0) }
            for operand in leaves.ranked[collation] ?? [] {
                if case .value(let value) = operand.expression {
                    if value != .null { rankedTexts[index]?.texts.append(Self.text(value)) }
                } else if entitiesSeen.insert("\(index) \(operand.entity.name) \(operand.expression)").inserted {
                    branches.append((index, [try writer.key(operand.expression, in: .root)], operand.entity, narrowing))
                }
            }
        }
        var answers: [Int: [(keys: [String], value: String)]] = [:]
        if !branches.isEmpty {
            let width = branches.map(\.keys.count).max() ?? 1
            let selects = branches.map { branch in
                var sql = SQLFragment(sql: "SELECT DISTINCT \(branch.index)::bigint, ")
                    + .joined(branch.keys + Array(repeating: SQLFragment(sql: "NULL::text"), count: width - branch.keys.count), separator: ", ")
                    + SQLFragment(sql: " FROM ") + .identifier(branch.table.name) + SQLFragment(sql: " WHERE ")
                sql.append(.joined(branch.keys.map { $0 + SQLFragment(sql: " IS NOT NULL") } + (branch.filter.map { [$0] } ?? []), separator: " AND "))
                return sql
            }
            let result = try query(.joined(selects, separator: " UNION ALL "))
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
                } else if let text = result.text(row: row, column: 1) {
                    rankedTexts[index]?.texts.append(text)
                }
            }
        }
        for (index, (call, _)) in pending {
            calls[call.node] = .table(Self.object(answers[index]?[...] ?? [], depth: 0))
        }
        for (_, ranked) in rankedTexts {
            let ordering = Self.ordering(of: ranked.collation)
            if let prefix = leaves.rankedPrefix, prefix.collation == ranked.collation {
                ranks[ranked.collation] = Self.prefixRanks(ranked.texts, first: prefix.count, ordering: ordering, ascending: prefix.ascending)
            } else {
                ranks[ranked.collation] = Ranks(table: Self.rankTable(ranked.texts, ordering: ordering), others: nil)
            }
        }
    }

    /// The pre-pass filter of a call with an exact branch: the rows where one of its varying text arguments is not
    /// simple; `nil` (every row) without an exact branch or when a constant text argument is not simple.
    private static func simpleFilter(_ call: PostgresTextLeaves.Call, varying: [Int], writer: PostgresQueryWriter) throws -> SQLFragment? {
        guard PostgresTextLeaves.hasExactBranch(call.function, call.arguments) else { return nil }
        let positions = PostgresTextLeaves.textPositions(of: call.function) ?? []
        var tests: [SQLFragment] = []
        for position in positions where position < call.arguments.count {
            if case .value(let value) = call.arguments[position] {
                guard isSimple(value) else { return nil }
            } else {
                tests.append(SQLFragment(sql: "strata_is_simple(") + (try writer.value(call.arguments[position], in: .root)) + SQLFragment(sql: ")"))
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
