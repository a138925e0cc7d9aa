import Foundation

/// Compares a run with a previous run's `--json` output (`--compare FILE`) and names what got worse.
///
/// Ratios are compared, not times: each ratio comes from one run, Strata and its floor alternating, so a busier
/// machine moves both sides. Allocations per row don't depend on the machine at all.
struct Comparison {
    /// How much a ratio or an allocation count may grow before it is named: 10%.
    static let tolerance = 0.10

    /// One measure of one workload that grew past the tolerance.
    struct Regression {
        var workload: String
        var measure: String
        var before: Double
        var after: Double

        var line: String {
            let growth = (after / before - 1) * 100
            return String(format: "  %@: %@ %.2f → %.2f (+%.0f%%)", workload, measure, before, after, growth)
        }
    }

    private struct Document: Decodable {
        var quick: Bool
        var workloads: [WorkloadResult]
    }

    /// A previous run, read and checked before this one starts.
    struct PreviousRun {
        /// Its file.
        let path: String
        /// Its workloads by name.
        let workloads: [String: WorkloadResult]

        /// Reads the previous run at `path`.
        ///
        /// - Throws: an error naming the file when it can't be read or isn't a `--json` output of `strata-bench`, or
        ///   when it was run at the other size (`--quick` or not).
        init(path: String, quick: Bool) throws {
            self.path = path
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw ComparisonError(message: "can't read \(path): \(error.localizedDescription)")
            }
            let document: Document
            do { document = try JSONDecoder().decode(Document.self, from: data) } catch {
                throw ComparisonError(message: "\(path) is not the --json output of strata-bench: \(error)")
            }
            guard document.quick == quick else {
                let previousSize = document.quick ? "with" : "without"
                throw ComparisonError(
                    message: "\(path) was run \(previousSize) --quick; this run was not the same size")
            }
            workloads = Dictionary(document.workloads.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The previous run's path.
    let path: String
    /// The workloads that got worse, in the order of the run.
    let regressions: [Regression]
    /// Workloads of this run that the previous run doesn't have (renamed, new, or another size).
    let unmatched: [String]

    /// Compares `results` with the previous run.
    init(_ results: [WorkloadResult], with previous: PreviousRun) {
        path = previous.path
        var regressions: [Regression] = []
        var unmatched: [String] = []
        for result in results {
            guard let before = previous.workloads[result.name] else {
                unmatched.append(result.name)
                continue
            }
            let measures: [(String, Double?, Double?)] = [
                ("Strata/raw", before.ratio, result.ratio),
                ("Strata/object", before.objectRatio, result.objectRatio),
                ("allocations per row", before.strataAllocationsPerRow, result.strataAllocationsPerRow),
            ]
            for case (let measure, let old?, let new?) in measures where old > 0 && new > old * (1 + Self.tolerance) {
                regressions.append(Regression(workload: result.name, measure: measure, before: old, after: new))
            }
        }
        self.regressions = regressions
        self.unmatched = unmatched
    }

    /// The report printed after the run's own.
    var report: String {
        var lines = ["compared with \(path):"]
        if regressions.isEmpty {
            lines.append("  no ratio or allocation count grew by more than \(Int(Self.tolerance * 100))%")
        } else {
            lines.append("  \(regressions.count) grew by more than \(Int(Self.tolerance * 100))%:")
            lines += regressions.map(\.line)
        }
        if !unmatched.isEmpty { lines.append("  not in the previous run: " + unmatched.joined(separator: "; ")) }
        return lines.joined(separator: "\n")
    }
}

/// Why `--compare` could not compare.
struct ComparisonError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
