import Foundation
import Strata
import StrataPostgres

/// `--history --store postgresql://…`: what persistent history costs as it grows. At each of `sizes` history
/// transactions (one change each, written by SQL in the store's own layout, then ten real saves), times the reads a
/// sync or a `NOTIFY` catch-up runs (`fetchHistory` after a recent token), the newest ten transactions read by date,
/// and the deletes retention runs (the oldest thousand by token, the next thousand by age). Each should cost what
/// the rows it reads or deletes cost, whatever the table's size.
enum HistoryScaleRun {
    /// History transactions per step (`--quick`: the first two divided by ten).
    static let sizes = [100_000, 1_000_000, 10_000_000]
    /// Transactions each retention delete removes.
    static let deletedPerRound = 1_000

    /// One size's medians, in milliseconds.
    struct Measurement {
        var transactions: Int
        var fillSeconds: Double
        var afterTokenMs: Double
        var byDateMs: Double
        var deleteByTokenMs: Double
        var deleteByAgeMs: Double
    }

    static func run(_ options: Options, url: URL) throws -> [Measurement] {
        let sizes = options.quick ? sizes.prefix(2).map { $0 / 10 } : sizes
        return try sizes.map { try measure(transactions: $0, rounds: options.rounds, url: url) }
    }

    private static func measure(transactions: Int, rounds: Int, url: URL) throws -> Measurement {
        let schema = RawPostgresConnection.makeSchemaName("history")
        defer { RawPostgresConnection.dropSchema(schema, at: url) }
        let configuration = PostgresConfiguration(url: url, databaseSchema: schema)
        let container = try ModelContainer(
            for: Schema([Item.self]), migrationPlan: nil, configurations: [configuration])
        defer { container.close() }

        let filling = ContinuousClock.now
        let raw = try RawPostgresConnection(url: url, schema: schema)
        let start = Date().timeIntervalSinceReferenceDate - 86_400 - Double(transactions) * 0.001
        try raw.execute(
            """
            INSERT INTO strata_history_transactions ("timestamp", author, bundle, process) \
            SELECT \(start) + g * 0.001, NULL, 'strata-bench', 'strata-bench' FROM generate_series(1, \(transactions)) g
            """)
        try raw.execute(
            """
            INSERT INTO strata_history_changes ("transaction", position, kind, entity, "row", count) \
            SELECT id, 0, 0, 'Item', id, 1 FROM strata_history_transactions
            """)
        try raw.execute("ANALYZE")
        let fillSeconds = Harness.milliseconds(ContinuousClock.now - filling) / 1_000

        let context = ModelContext(container)
        var tokens: [DefaultHistoryToken] = []
        // The filled transactions are a day old: reading the last hour's finds only these saves.
        let savesStarted = Date.now.addingTimeInterval(-3_600)
        for index in 0..<10 {
            context.insert(Item(ItemRow.make(index)))
            try context.save()
            let newest = try context.fetchHistory(
                HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.timestamp > savesStarted }))
            if let token = newest.last?.token { tokens.append(token) }
        }
        guard let recent = tokens.first, tokens.count == 10 else {
            throw RawSQLiteError(description: "history: the ten saves recorded \(tokens.count) transactions")
        }

        var afterToken: [Double] = []
        var byDate: [Double] = []
        var deleteByToken: [Double] = []
        var deleteByAge: [Double] = []
        let recentDate = Date.now.addingTimeInterval(-3_600)
        for round in 0..<rounds {
            afterToken.append(
                try Harness.time {
                    let read = try context.fetchHistory(
                        HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > recent }))
                    guard read.count == 9 else {
                        throw RawSQLiteError(
                            description: "history: read \(read.count) transactions after the token, not 9")
                    }
                })
            byDate.append(
                try Harness.time {
                    let read = try context.fetchHistory(
                        HistoryDescriptor<DefaultHistoryTransaction>(
                            predicate: #Predicate { $0.timestamp > recentDate }))
                    guard read.count == 10 else {
                        throw RawSQLiteError(
                            description: "history: read \(read.count) transactions after the date, not 10")
                    }
                })
            // Transaction `g` was filled with the timestamp `start + g ms`: by token the oldest thousand left, then
            // by age the next thousand.
            let boundary = DefaultHistoryToken(
                storeIdentifier: recent.storeIdentifier,
                transactionIdentifier: Int64((2 * round + 1) * deletedPerRound + 1))
            deleteByToken.append(
                try Harness.time {
                    try context.deleteHistory(
                        HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token < boundary }))
                })
            let age = Date(
                timeIntervalSinceReferenceDate: start + Double((2 * round + 2) * deletedPerRound) * 0.001 + 0.0005)
            deleteByAge.append(
                try Harness.time {
                    try context.deleteHistory(
                        HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.timestamp < age }))
                })
        }
        return Measurement(
            transactions: transactions, fillSeconds: fillSeconds, afterTokenMs: Harness.median(afterToken),
            byDateMs: Harness.median(byDate), deleteByTokenMs: Harness.median(deleteByToken),
            deleteByAgeMs: Harness.median(deleteByAge))
    }

    static func table(_ results: [Measurement]) -> String {
        var lines = [
            "persistent history on PostgreSQL as it grows (medians in ms; one change per transaction)",
            "| transactions | fill (s) | after a token (9 read) | after a date (10 read) | delete 1,000 by token | delete 1,000 by age |",
            "|---:|---:|---:|---:|---:|---:|",
        ]
        for result in results {
            let cells = [result.afterTokenMs, result.byDateMs, result.deleteByTokenMs, result.deleteByAgeMs]
                .map { $0.formatted(.number.precision(.fractionLength(2))) }
            lines.append(
                "| \(result.transactions.formatted()) | \(result.fillSeconds.formatted(.number.precision(.fractionLength(1)))) | "
                    + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }
}
