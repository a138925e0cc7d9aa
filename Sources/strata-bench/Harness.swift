import CStrataBenchSupport
import Foundation

/// What one timed run of one implementation measured.
struct Sample {
    var milliseconds: Double
    /// The 99th percentile, when the run timed many events and `milliseconds` is their median.
    var p99Milliseconds: Double? = nil
    /// Resident-memory growth during the timed part, when the workload measures it.
    var rssGrowthBytes: Int? = nil
    /// Heap allocations per row during the timed part, when the workload counts them (see `Harness.measure`).
    var allocationsPerRow: Double? = nil
    /// Statements Strata's store ran during the timed part, when the workload counts them.
    var queries: Int? = nil
}

/// A workload and its two implementations; `nil` implementations mean the feature isn't built yet.
struct Workload {
    var name: String
    var raw: (nonisolated(nonsending) () async throws -> Sample)?
    var strata: (nonisolated(nonsending) () async throws -> Sample)?
    /// The object floor, for workloads that make a model per row: the raw rows read into `@Observable` class
    /// instances registered by primary key.
    var object: (nonisolated(nonsending) () async throws -> Sample)? = nil
    /// Rounds to run instead of the options' count (a run that times many events itself needs one).
    var rounds: Int? = nil
    /// Why the workload can't run yet.
    var notYet: String? = nil
    /// The chart a `--scale` run draws this workload in, and the table size it ran at.
    var family: Family? = nil
}

/// The summary of one workload over all rounds.
struct WorkloadResult: Codable {
    var name: String
    /// How many rounds ran (a workload may run more or fewer than the options say).
    var rounds: Int?
    var rawMedianMs: Double?
    var strataMedianMs: Double?
    /// The 99th percentile of the events a single-round workload timed.
    var rawP99Ms: Double?
    var strataP99Ms: Double?
    /// Strata / the struct floor (raw rows into structs).
    var ratio: Double?
    var rawPeakRSSBytes: Int?
    var strataPeakRSSBytes: Int?
    var rawRSSGrowthBytes: Int?
    var strataRSSGrowthBytes: Int?
    var notYet: String?
    /// The object floor (raw rows into registered `@Observable` objects), for workloads that make models.
    var objectMedianMs: Double? = nil
    /// Strata / the object floor.
    var objectRatio: Double? = nil
    var objectPeakRSSBytes: Int? = nil
    var objectRSSGrowthBytes: Int? = nil
    /// Heap allocations per row of the timed part (median of the rounds), where counted.
    var rawAllocationsPerRow: Double? = nil
    var objectAllocationsPerRow: Double? = nil
    var strataAllocationsPerRow: Double? = nil
    /// The workload's chart (`--scale`) and the size it ran at.
    var family: String? = nil
    var size: Int? = nil
    /// Whether the family's chart shows time per row (`false`: time per query).
    var perRow: Bool? = nil
    /// Statements Strata's store ran in the timed part (the largest count of the rounds), where counted.
    var strataQueries: Int? = nil
}

/// Runs workloads round by round, alternating the raw and Strata implementations.
enum Harness {
    @MainActor
    static func run(_ workload: Workload, rounds: Int) async throws -> WorkloadResult {
        guard let raw = workload.raw, let strata = workload.strata else {
            return WorkloadResult(name: workload.name, notYet: workload.notYet ?? "not yet")
        }
        var rawRuns = Runs()
        var objectRuns = Runs()
        var strataRuns = Runs()
        let rounds = max(workload.rounds ?? rounds, 1)
        for _ in 0..<rounds {
            try await rawRuns.run(raw)
            if let object = workload.object { try await objectRuns.run(object) }
            try await strataRuns.run(strata)
        }
        let rawMedian = median(rawRuns.samples.map(\.milliseconds))
        let strataMedian = median(strataRuns.samples.map(\.milliseconds))
        let objectMedian = workload.object.map { _ in median(objectRuns.samples.map(\.milliseconds)) }
        var result = WorkloadResult(
            name: workload.name, rounds: rounds, rawMedianMs: rawMedian, strataMedianMs: strataMedian,
            rawP99Ms: rawRuns.samples.compactMap(\.p99Milliseconds).max(),
            strataP99Ms: strataRuns.samples.compactMap(\.p99Milliseconds).max(),
            ratio: rawMedian > 0 ? strataMedian / rawMedian : nil,
            rawPeakRSSBytes: rawRuns.peak, strataPeakRSSBytes: strataRuns.peak,
            rawRSSGrowthBytes: rawRuns.samples.compactMap(\.rssGrowthBytes).max(),
            strataRSSGrowthBytes: strataRuns.samples.compactMap(\.rssGrowthBytes).max())
        if let objectMedian {
            result.objectMedianMs = objectMedian
            result.objectRatio = objectMedian > 0 ? strataMedian / objectMedian : nil
            result.objectPeakRSSBytes = objectRuns.peak
            result.objectRSSGrowthBytes = objectRuns.samples.compactMap(\.rssGrowthBytes).max()
        }
        result.rawAllocationsPerRow = rawRuns.allocationsPerRow
        result.objectAllocationsPerRow = objectRuns.allocationsPerRow
        result.strataAllocationsPerRow = strataRuns.allocationsPerRow
        result.family = workload.family?.name
        result.size = workload.family?.size
        result.perRow = workload.family?.perRow
        result.strataQueries = strataRuns.samples.compactMap(\.queries).max()
        return result
    }

    /// The samples and the peak RSS of one implementation's rounds.
    private struct Runs {
        var samples: [Sample] = []
        var peak = 0

        @MainActor
        mutating func run(_ implementation: nonisolated(nonsending) () async throws -> Sample) async throws {
            resetPeakRSS()
            samples.append(try await implementation())
            peak = max(peak, Memory.peakRSS ?? 0)
        }

        var allocationsPerRow: Double? {
            let counted = samples.compactMap(\.allocationsPerRow)
            return counted.isEmpty ? nil : Harness.median(counted)
        }
    }

    /// Milliseconds `body` takes.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        return milliseconds(ContinuousClock.now - start)
    }

    /// `duration` in milliseconds.
    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    /// Times `body` and counts the heap allocations it makes, per row of the `rows` it reads or writes.
    static func measure(rows: Int, _ body: () throws -> Void) rethrows -> Sample {
        let allocationsBefore = strata_bench_allocations()
        let milliseconds = try time(body)
        let allocations = strata_bench_allocations() - allocationsBefore
        return Sample(milliseconds: milliseconds, allocationsPerRow: Double(allocations) / Double(max(rows, 1)))
    }

    /// Times `body` and reports how far resident memory rose above where it started (the kernel's peak
    /// counter is reset first; where that isn't allowed, the growth is the end-of-run RSS).
    /// With `rows`, it also counts allocations per row, as `measure` does.
    static func timeWithMemory(rows: Int? = nil, _ body: () throws -> Void) rethrows -> Sample {
        resetPeakRSS()
        let before = Memory.currentRSS ?? 0
        var sample = try rows.map { try measure(rows: $0, body) } ?? Sample(milliseconds: try time(body))
        let peak = Memory.peakRSS ?? Memory.currentRSS ?? before
        sample.rssGrowthBytes = max(peak - before, 0)
        return sample
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Returns freed heap to the system, then asks Linux to restart the VmHWM peak from the current RSS
    /// (`echo 5 > /proc/self/clear_refs`), so each run's peak isn't the heap earlier workloads left behind.
    static func resetPeakRSS() {
        // glibc's malloc_trim isn't in the Glibc module; look it up (nil handle = RTLD_DEFAULT).
        if let symbol = dlsym(nil, "malloc_trim") {
            typealias Trim = @convention(c) (Int) -> Int32
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return }
        try? handle.write(contentsOf: Data("5".utf8))
        try? handle.close()
    }
}

/// Resident memory read from `/proc/self/status`.
enum Memory {
    static var peakRSS: Int? { status(field: "VmHWM:") }
    static var currentRSS: Int? { status(field: "VmRSS:") }

    /// A `kB` field of `/proc/self/status`, in bytes.
    private static func status(field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field) {
            let number = line.dropFirst(field.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            return number.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }
}

/// Keeps a value alive and observed, so the work producing it isn't optimised away.
@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// A fresh store path in the temporary directory, and removal of it with its WAL files.
enum TemporaryStore {
    static func makePath(_ label: String) -> String {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-bench-\(getpid())-\(label)-\(UUID().uuidString).store").path
    }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
