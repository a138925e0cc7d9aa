import Foundation

/// What one timed run of one implementation measured.
struct Sample {
    var milliseconds: Double
    /// The 99th percentile, when the run timed many events and `milliseconds` is their median.
    var p99Milliseconds: Double? = nil
    /// Resident-memory growth during the timed part, when the workload measures it.
    var rssGrowthBytes: Int? = nil
}

/// A workload and its two implementations; `nil` implementations mean the feature isn't built yet.
struct Workload {
    var name: String
    var raw: (nonisolated(nonsending) () async throws -> Sample)?
    var strata: (nonisolated(nonsending) () async throws -> Sample)?
    /// Rounds to run instead of the options' count (a run that times many events itself needs one).
    var rounds: Int? = nil
    /// Why the workload can't run yet.
    var notYet: String? = nil
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
    var ratio: Double?
    var rawPeakRSSBytes: Int?
    var strataPeakRSSBytes: Int?
    var rawRSSGrowthBytes: Int?
    var strataRSSGrowthBytes: Int?
    var notYet: String?
}

/// Runs workloads round by round, alternating the raw and Strata implementations.
enum Harness {
    @MainActor
    static func run(_ workload: Workload, rounds: Int) async throws -> WorkloadResult {
        guard let raw = workload.raw, let strata = workload.strata else {
            return WorkloadResult(name: workload.name, notYet: workload.notYet ?? "not yet")
        }
        var rawSamples: [Sample] = []
        var strataSamples: [Sample] = []
        var rawPeak = 0
        var strataPeak = 0
        let rounds = max(workload.rounds ?? rounds, 1)
        for _ in 0..<rounds {
            resetPeakRSS()
            rawSamples.append(try await raw())
            rawPeak = max(rawPeak, Memory.peakRSS ?? 0)
            resetPeakRSS()
            strataSamples.append(try await strata())
            strataPeak = max(strataPeak, Memory.peakRSS ?? 0)
        }
        let rawMedian = median(rawSamples.map(\.milliseconds))
        let strataMedian = median(strataSamples.map(\.milliseconds))
        return WorkloadResult(
            name: workload.name, rounds: rounds, rawMedianMs: rawMedian, strataMedianMs: strataMedian,
            rawP99Ms: rawSamples.compactMap(\.p99Milliseconds).max(),
            strataP99Ms: strataSamples.compactMap(\.p99Milliseconds).max(),
            ratio: rawMedian > 0 ? strataMedian / rawMedian : nil,
            rawPeakRSSBytes: rawPeak, strataPeakRSSBytes: strataPeak,
            rawRSSGrowthBytes: rawSamples.compactMap(\.rssGrowthBytes).max(),
            strataRSSGrowthBytes: strataSamples.compactMap(\.rssGrowthBytes).max())
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

    /// Times `body` and reports how far resident memory rose above where it started (the kernel's peak
    /// counter is reset first; where that isn't allowed, the growth is the end-of-run RSS).
    static func timeWithMemory(_ body: () throws -> Void) rethrows -> Sample {
        resetPeakRSS()
        let before = Memory.currentRSS ?? 0
        let milliseconds = try time(body)
        let peak = Memory.peakRSS ?? Memory.currentRSS ?? before
        return Sample(milliseconds: milliseconds, rssGrowthBytes: max(peak - before, 0))
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
