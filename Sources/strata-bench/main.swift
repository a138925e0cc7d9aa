import CommandLineSupport
import Foundation

// strata-bench [--quick] [--json] [--only N]: each workload against raw SQLite (the floors) and Strata, alternating.
CrossProcessWriter.runIfRequested()
let options = Options.tool.parse(Options.init(arguments:))
// Read before the run, so a wrong path fails now rather than after it.
let previousRun: Comparison.PreviousRun?
do {
    previousRun = try options.comparedRun.map { try Comparison.PreviousRun(path: $0, quick: options.quick) }
} catch {
    FileHandle.standardError.write(Data("strata-bench: \(error)\n".utf8))
    exit(2)
}

let raw = RawWorkloads(options: options)
let strata = StrataWorkloads(options: options)
let n = options.rows.formatted()
let large = options.largeRows.formatted()
let live = LiveQuery(options: options)
let workloads = [
    Workload(name: "1 insert \(n) + save", raw: raw.insert, strata: strata.insert),
    Workload(
        name: "2 fetch \(n), read all attributes", raw: raw.fetchAll, strata: strata.fetchAll,
        object: raw.fetchAllObjects),
    // A fraction of a millisecond per run, on a store built once: ten times the rounds for a median that holds still.
    Workload(
        name: "3 predicate + sort + limit 50 over \(large)", raw: raw.sortedLimit, strata: strata.sortedLimit,
        object: raw.sortedLimitObjects, rounds: options.rounds * 10),
    Workload(name: "4 change 10% of \(n) + save", raw: raw.update, strata: strata.update),
    Workload(name: "5 delete(model:where:) half of \(n) + save", raw: raw.deleteHalf, strata: strata.deleteHalf),
    Workload(name: "6 fetchCount with predicate over \(large)", raw: raw.count, strata: strata.count),
    Workload(name: "7 enumerate \(large)", raw: raw.enumerate, strata: strata.enumerate, object: raw.enumerateObjects),
    Workload(
        name: "8a live: 1-row save, until the 1 affected of \(live.observers) observers publishes",
        raw: { try raw.liveResults(affecting: true) }, strata: { try await strata.liveResults(affecting: true) },
        rounds: 1),
    Workload(
        name: "8b live: 1-row save no observer shows, until all \(live.observers) have refreshed",
        raw: { try raw.liveResults(affecting: false) }, strata: { try await strata.liveResults(affecting: false) },
        rounds: 1),
    Workload(
        name: "8c live as 8a, observers re-running their query (no incremental refresh)",
        raw: { try raw.liveResults(affecting: true) },
        strata: { try await strata.liveResults(affecting: true, incremental: false) },
        rounds: 1),
    Workload(
        name: "9a migrate: add an attribute with a default to \(large) rows (vs ALTER TABLE ADD COLUMN)",
        raw: raw.addColumn, strata: strata.addColumn),
    Workload(
        name: "9b migrate: drop an attribute of \(large) rows (vs hand-written table rebuild)",
        raw: raw.rebuildTable, strata: strata.rebuildTable),
    // The floors run the same statements as 3 and 6: what the query costs with the changes saved.
    Workload(
        name: "10a predicate + sort + limit 50 over \(large) with \(Query.pendingChanges) unsaved changes",
        raw: raw.sortedLimit, strata: strata.sortedLimitWithPendingChanges, object: raw.sortedLimitObjects,
        rounds: options.rounds * 10),
    Workload(
        name: "10b fetchCount with predicate over \(large) with \(Query.pendingChanges) unsaved changes",
        raw: raw.count, strata: strata.countWithPendingChanges),
    Workload(
        name: "11a fetch(_:batchSize:) predicate + sort over \(large), read the first batch",
        raw: { try raw.page(last: false) }, strata: { try strata.page(last: false) }),
    Workload(
        name: "11b fetch(_:batchSize:) predicate + sort over \(large), read the last batch",
        raw: { try raw.page(last: true) }, strata: { try strata.page(last: true) }),
    Workload(
        name: "11c enumerate predicate + sort over \(large), first page only",
        raw: { try raw.sortedRows(firstPageOnly: true) }, strata: { try strata.enumerateSorted(firstPageOnly: true) }),
    Workload(
        name: "11d enumerate predicate + sort over \(large), every page",
        raw: { try raw.sortedRows(firstPageOnly: false) }, strata: { try strata.enumerateSorted(firstPageOnly: false) }),
    Workload(
        name: "12 book.author.name for \(n) books (raw: one JOIN)", raw: raw.authorNames, strata: strata.authorNames),
    Workload(
        name: "12b as 12, fetch(_:batchSize: \(Query.smallBatch))", raw: raw.authorNames,
        strata: strata.authorNamesInBatches),
    Workload(
        name: "13 change \(n) books + \(options.library.authors.formatted()) authors (10% moved) + save",
        raw: raw.saveLibraryChanges, strata: strata.saveLibraryChanges),
    Workload(
        name: "14 delete(model:where:) half the authors, cascading to \(n) books + save",
        raw: raw.cascadeDelete, strata: strata.cascadeDelete),
    Workload(
        name: "15a save 1 change, \(large) models registered", raw: { try raw.saveOneChange(readingAll: true) },
        strata: { try strata.saveOneChange(registeringAll: true) }),
    // A fraction of a millisecond per run, as 3 and 10a.
    Workload(
        name: "15b save 1 change, 1 model registered", raw: { try raw.saveOneChange(readingAll: false) },
        strata: { try strata.saveOneChange(registeringAll: false) }, rounds: options.rounds * 10),
    Workload(
        name: "16 enumerate \(large), \(n) of them already registered", raw: raw.enumerate,
        strata: strata.enumerateWithRegistered, object: raw.enumerateObjects),
]

// `--store postgresql://…`: workloads 1–7 on the server, against the libpq floor.
let postgresFloor = options.store.map { RawPostgresWorkloads(url: $0, options: options) }
let allWorkloads =
    postgresFloor.map { $0.workloads(against: strata) }
    ?? workloads + CrossProcessLiveResults.workloads(strata, options: options) + [
        Workload(
            name: "18a group-by category (10 groups) over \(large): count, sum, max (vs hand-written GROUP BY)",
            raw: { try raw.groupBy("category") }, strata: strata.groupByCategory),
        Workload(
            name: "18b group-by count (10,000 groups) over \(large): count, sum, max (vs hand-written GROUP BY)",
            raw: { try raw.groupBy("count") }, strata: strata.groupByCount),
        Workload(
            name: "18c live aggregate: 1-row save, until the totals per category of \(n) rows publish",
            raw: { try raw.liveAggregate(slice: false) }, strata: { try await strata.liveAggregate(slice: false) },
            rounds: 1),
        Workload(
            name: "18d live aggregate as 18c, totals of the 1% score < \(LiveAggregateQuery.sliceBound) (indexed)",
            raw: { try raw.liveAggregate(slice: true) }, strata: { try await strata.liveAggregate(slice: true) },
            rounds: 1),
        Workload(
            name: "19a author.books.count for \(options.library.authors.formatted()) authors (raw: a COUNT per author)",
            raw: raw.bookCounts, strata: strata.bookCounts),
        Workload(
            name: "19b author.books.map(\\.title) for \(options.library.authors.formatted()) authors (raw: one JOIN)",
            raw: raw.bookTitles, strata: strata.bookTitles),
        Workload(
            name: "20 photo.tags.map(\\.name) for \(n) photos, many-to-many (raw: one JOIN through the join table)",
            raw: raw.photoTags, strata: strata.photoTags),
        // A fraction of a millisecond per run, as 15b.
        Workload(
            name: "21 save 1 change to a book in an author's \(Options.largeToMany.books.formatted()) books",
            raw: raw.saveOneChangeInToMany, strata: strata.saveOneChangeInToMany, rounds: options.rounds * 10),
    ]

var results: [WorkloadResult] = []
do {
    if options.heartbeat, let url = options.store {
        print(HeartbeatRun.table(try await HeartbeatRun.run(options, url: url)))
        exit(0)
    }
    if options.sync, let url = options.store {
        print(SyncRun.table(try await SyncRun.run(options, url: url)))
        exit(0)
    }
    if options.memory {
        let measurements = try HeldMemoryRun.run(options, raw: raw, strata: strata)
        raw.removeLargeStore()
        strata.removeLargeStore()
        print(HeldMemoryRun.table(measurements, rows: options.largeRows))
        exit(0)
    }
    if options.history, let url = options.store {
        print(HistoryScaleRun.table(try HistoryScaleRun.run(options, url: url)))
        exit(0)
    }
    if options.openTime {
        results = try await OpenTimeRun.run(options)
    } else if options.scale {
        results = try await ScaleRun.run(options)
        if let directory = options.svgDirectory { try Chart.write(results, to: directory) }
    } else {
        for (number, workload) in zip(1..., allWorkloads) where options.only.map({ $0 == number }) ?? true {
            if !options.json { FileHandle.standardError.write(Data("running \(workload.name)…\n".utf8)) }
            results.append(try await Harness.run(workload, rounds: options.rounds))
        }
    }
    raw.removeLargeStore()
    strata.removeLargeStore()
    postgresFloor?.removeLargeStore()
    print(options.json ? try Report.json(results, options: options) : Report.table(results, options: options))
    if let previousRun {
        let comparison = Comparison(results, with: previousRun)
        // Beside a JSON document, on standard error, so the document stays valid.
        if options.json {
            FileHandle.standardError.write(Data((comparison.report + "\n").utf8))
        } else {
            print(comparison.report)
        }
    }
} catch {
    raw.removeLargeStore()
    strata.removeLargeStore()
    postgresFloor?.removeLargeStore()
    FileHandle.standardError.write(Data("strata-bench: \(error)\n".utf8))
    exit(1)
}
