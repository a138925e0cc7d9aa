import Foundation

/// A workload family of a `--scale` run: one chart, the same work at several table sizes.
struct Family {
    var name: String
    /// The table size this run of the family used.
    var size: Int
    /// Whether the chart shows time per row of the table (linear work) or time per query (the indexed query).
    var perRow: Bool
}

/// `--scale`: each workload family at each of `Options.scaleSizes`, on stores built for that size and removed
/// before the next.
enum ScaleRun {
    /// The families, the largest size each runs at, and their workloads at one size.
    private static func workloads(raw: RawWorkloads, strata: StrataWorkloads, size: Int, largest: Int) -> [Workload] {
        func family(_ name: String, perRow: Bool = true) -> Family { Family(name: name, size: size, perRow: perRow) }
        let n = size.formatted()
        var workloads = [
            Workload(name: "insert \(n) + save", raw: raw.insert, strata: strata.insert, family: family("insert")),
            Workload(
                name: "fetch \(n)", raw: raw.fetchAll, strata: strata.fetchAll, object: raw.fetchAllObjects,
                family: family("fetch")),
            Workload(
                name: "change 10% of \(n) + save", raw: raw.update, strata: strata.update, family: family("change")),
            Workload(
                name: "delete half of \(n) + save", raw: raw.deleteHalf, strata: strata.deleteHalf,
                family: family("delete")),
        ]
        if size > largest / 10 { workloads.removeAll() }
        workloads += [
            Workload(
                name: "predicate + sort + limit 50 over \(n)", raw: raw.sortedLimit, strata: strata.sortedLimit,
                object: raw.sortedLimitObjects, rounds: 30, family: family("indexed-query", perRow: false)),
            Workload(
                name: "fetchCount with predicate over \(n)", raw: raw.count, strata: strata.count,
                family: family("count")),
            Workload(
                name: "enumerate \(n)", raw: raw.enumerate, strata: strata.enumerate, object: raw.enumerateObjects,
                family: family("enumerate")),
        ]
        return workloads
    }

    /// Runs every family at every size (the largest size once per implementation, the others `options.rounds`
    /// times), alternating the implementations as the table does.
    @MainActor
    static func run(_ options: Options) async throws -> [WorkloadResult] {
        let sizes = options.scaleSizesToRun
        var results: [WorkloadResult] = []
        for size in sizes {
            let sized = options.sized(size)
            let raw = RawWorkloads(options: sized)
            let strata = StrataWorkloads(options: sized)
            defer {
                raw.removeLargeStore()
                strata.removeLargeStore()
            }
            for workload in workloads(raw: raw, strata: strata, size: size, largest: sizes.last ?? size) {
                if !options.json { FileHandle.standardError.write(Data("running \(workload.name)…\n".utf8)) }
                let rounds = size == sizes.last ? 1 : options.rounds
                results.append(
                    try await Harness.run(workload, rounds: workload.rounds.map { min($0, rounds * 10) } ?? rounds))
            }
        }
        return results
    }
}
