import CSQLite
import CStrataBenchSupport
import Foundation
import Strata

/// `--memory`: the heap each fetched model keeps while its context holds it. The large store's rows (1,000,000;
/// `--quick`: 100,000) are read and held three ways: as `ItemRow` structs in an array reserved to size (the values
/// alone), as `ObjectItem`s registered in a dictionary by primary key (the object floor), and as Strata models
/// fetched into a context. Each is the growth of the allocator's bytes in use (glibc's `mallinfo2`, mapped blocks
/// included) from before the read to after it, with every property read once, divided by the rows: what is held,
/// not the pages the allocator keeps.
enum HeldMemoryRun {
    /// One way of holding the rows.
    struct Measurement {
        /// How the rows were held.
        var name: String
        /// Heap bytes held per row.
        var bytesPerRow: Double
    }

    @MainActor
    static func run(_ options: Options, raw: RawWorkloads, strata: StrataWorkloads) throws -> [Measurement] {
        let rows = options.largeRows
        let database = try raw.large()
        let context = try strata.largeContext()
        let select = "SELECT \"Z_PK\", \(RawDatabase.columnList) FROM \"Item\""
        return [
            Measurement(
                name: "ItemRow structs in an array",
                bytesPerRow: try held(rows) {
                    let statement = try database.prepare(select)
                    var structs: [ItemRow] = []
                    structs.reserveCapacity(rows)
                    while try statement.step() { structs.append(statement.row(from: 1)) }
                    return (structs, structs.reduce(0) { $0 &+ $1.checksum })
                }),
            Measurement(
                name: "@Observable objects in a dictionary by key (object floor)",
                bytesPerRow: try held(rows) {
                    let statement = try database.prepare(select)
                    var registry: [Int64: ObjectItem] = [:]
                    var objects: [ObjectItem] = []
                    while try statement.step() {
                        let object = ObjectItem(statement.row(from: 1))
                        registry[sqlite3_column_int64(statement.pointer, 0)] = object
                        objects.append(object)
                    }
                    return ((registry, objects), objects.reduce(0) { $0 &+ $1.checksum })
                }),
            Measurement(
                name: "Strata models fetched into a context",
                bytesPerRow: try held(rows) {
                    let items = try context.fetch(FetchDescriptor<Item>())
                    return ((context, items), items.reduce(0) { $0 &+ $1.checksum })
                }),
        ]
    }

    /// The heap bytes per row that `read`'s result holds, measured while it is still held.
    private static func held(_ rows: Int, _ read: () throws -> (held: Any, checksum: Int)) throws -> Double {
        let before = bytesInUse()
        let (result, checksum) = try read()
        let after = bytesInUse()
        consume(checksum)
        withExtendedLifetime(result) {}
        return Double(after - before) / Double(rows)
    }

    /// The allocator's bytes in use, blocks it mapped included.
    private static func bytesInUse() -> Int {
        Int(strata_bench_heap_bytes_in_use())
    }

    /// The measurements as a table, with each one's bytes beyond the structs' (the values themselves).
    static func table(_ measurements: [Measurement], rows: Int) -> String {
        let values = measurements.first?.bytesPerRow ?? 0
        var lines = [
            "heap held per row, \(rows.formatted()) rows held",
            "| held as | bytes per row | beyond the values |",
            "|---|---:|---:|",
        ]
        for measurement in measurements {
            lines.append(
                "| \(measurement.name) | \(Int(measurement.bytesPerRow.rounded())) | "
                    + "\(Int((measurement.bytesPerRow - values).rounded())) |")
        }
        return lines.joined(separator: "\n")
    }
}
