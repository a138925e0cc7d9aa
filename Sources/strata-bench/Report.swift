import Foundation

/// Prints results as a fixed-width table or as JSON.
enum Report {
    static func table(_ results: [WorkloadResult], options: Options) -> String {
        let header = [
            "workload", "raw ms", "object ms", "Strata ms", "Strata/raw", "Strata/object",
            "allocs/row raw·obj·Strata", "raw peak RSS", "object peak RSS", "Strata peak RSS",
        ]
        var rows = [header]
        for result in results {
            if let notYet = result.notYet {
                rows.append([result.name, notYet] + Array(repeating: "", count: header.count - 2))
                continue
            }
            let allocations = [
                result.rawAllocationsPerRow, result.objectAllocationsPerRow, result.strataAllocationsPerRow,
            ]
            rows.append([
                result.name,
                milliseconds(result.rawMedianMs, p99: result.rawP99Ms),
                milliseconds(result.objectMedianMs),
                milliseconds(result.strataMedianMs, p99: result.strataP99Ms)
                    + (result.strataQueries.map { " (\($0) queries)" } ?? ""),
                ratio(result.ratio),
                ratio(result.objectRatio),
                allocations.allSatisfy { $0 == nil }
                    ? "–" : allocations.map { $0.map { String(format: "%.1f", $0) } ?? "–" }.joined(separator: " · "),
                memory(result.rawPeakRSSBytes, growth: result.rawRSSGrowthBytes),
                memory(result.objectPeakRSSBytes, growth: result.objectRSSGrowthBytes),
                memory(result.strataPeakRSSBytes, growth: result.strataRSSGrowthBytes),
            ])
        }
        let widths = header.indices.map { column in
            rows.filter { $0[1].count < 40 || column == 0 }.map { $0[column].count }.max() ?? 0
        }
        let lines = rows.map { row in
            row.enumerated().map { column, text in
                let pad = String(repeating: " ", count: max(widths[column] - text.count, 0))
                return column == 0 ? text + pad : (row[2].isEmpty ? text : pad + text)
            }.joined(separator: "  ")
        }
        let title =
            "strata-bench: \(options.rounds) rounds (3 and 10a: \(options.rounds * 10)), medians (8a/8b/8c: one round of many changes); "
            + (options.scale
                ? "sizes \(options.scaleSizesToRun.map { $0.formatted() }.joined(separator: " / "))"
                : "\(options.rows) / \(options.largeRows) rows")
            + (options.quick ? " (--quick)" : "")
            + (options.store != nil ? ", on PostgreSQL against libpq" : "")
        return ([title] + lines).joined(separator: "\n")
    }

    static func json(_ results: [WorkloadResult], options: Options) throws -> String {
        struct Document: Codable {
            var quick: Bool
            var scale: Bool
            var rounds: Int
            var rows: Int
            var largeRows: Int
            var workloads: [WorkloadResult]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let document = Document(
            quick: options.quick, scale: options.scale, rounds: options.rounds, rows: options.rows,
            largeRows: options.largeRows, workloads: results)
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }

    /// A time in milliseconds (three decimals below 1 ms), with the 99th percentile when there is one.
    private static func milliseconds(_ value: Double?, p99: Double? = nil) -> String {
        guard let value else { return "–" }
        let format = { (milliseconds: Double) in String(format: milliseconds < 1 ? "%.3f" : "%.1f", milliseconds) }
        return format(value) + (p99.map { " (p99 \(format($0)))" } ?? "")
    }

    private static func ratio(_ value: Double?) -> String {
        value.map { String(format: "%.2f×", $0) } ?? "–"
    }

    /// Peak RSS in MB, with the growth during the run when it was measured.
    private static func memory(_ bytes: Int?, growth: Int?) -> String {
        guard let bytes else { return "–" }
        let peak = String(format: "%.1f MB", Double(bytes) / 1_048_576)
        guard let growth else { return peak }
        return peak + String(format: " (+%.1f MB)", Double(growth) / 1_048_576)
    }
}
