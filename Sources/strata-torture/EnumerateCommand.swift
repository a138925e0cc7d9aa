import Foundation
import Strata

/// A row of the `enumerate` workload: a few attributes of the common kinds.
@Model
final class BulkRow {
    var number: Int
    var title: String
    var weight: Double

    init(number: Int, title: String, weight: Double) {
        self.number = number
        self.title = title
        self.weight = weight
    }
}

/// `enumerate`: the peak resident memory of `ModelContext.enumerate` over many rows (written with one SQL
/// statement, so building the store costs little), against the process's memory before the walk.
@MainActor
struct EnumerateCommand {
    let rows: Int

    func run() throws -> Bool {
        let scratch = try ScratchDirectory("enumerate")
        defer { scratch.remove() }
        let path = scratch.file("bulk.store")
        let configuration = ModelConfiguration(url: URL(fileURLWithPath: path))
        do {
            _ = try ModelContainer(for: BulkRow.self, configurations: configuration)
            let connection = try SQLiteConnection(location: .file(path))
            try connection.execute(
                """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
                INSERT INTO "BulkRow" ("number", "title", "weight") SELECT i, 'row ' || i, i * 0.5 FROM n
                """)
        }
        let context = ModelContext(try ModelContainer(for: BulkRow.self, configurations: configuration))
        let before = FuzzFormatCommand.residentBytes() ?? 0
        var peak = before, seen = 0, checksum = 0
        let started = Date()
        try context.enumerate(FetchDescriptor<BulkRow>()) { row in
            seen += 1
            checksum &+= row.number &+ row.title.utf8.count &+ Int(row.weight)
            if seen % 50_000 == 0 { peak = max(peak, FuzzFormatCommand.residentBytes() ?? 0) }
        }
        // The kernel's high-water mark catches a peak between samples (it also covers writing the store).
        peak = max(peak, FuzzFormatCommand.peakResidentBytes() ?? 0)
        let growth = peak - before
        let seconds = Date().timeIntervalSince(started)
        report(
            "enumerate: \(seen) rows in \(String(format: "%.1f", seconds)) s, resident memory \(before >> 20) MB before,"
                + " peak \(peak >> 20) MB (grew \(growth >> 20) MB; limit 64 MB), checksum \(checksum)")
        return seen == rows && growth < 64 << 20
    }
}
