import CSQLite
import Foundation

/// The object floor: the raw implementation's rows read into `ObjectItem`s (an `@Observable final class`) and
/// registered in a dictionary keyed by primary key — the least an identity map does. Strata's read workloads
/// are also measured against it, to tell what any observable, identity-mapped model costs from what Strata adds.
extension RawWorkloads {
    /// Reads every row of `statement` (primary key in column 0, the ten values after it) into registered objects.
    private func registeredObjects(
        _ statement: RawStatement, into registry: inout [Int64: ObjectItem]
    ) throws -> [ObjectItem] {
        var objects: [ObjectItem] = []
        while try statement.step() {
            let object = ObjectItem(statement.row(from: 1))
            registry[sqlite3_column_int64(statement.pointer, 0)] = object
            objects.append(object)
        }
        return objects
    }

    func fetchAllObjects() throws -> Sample {
        try withStore(rows: options.rows) { database in
            try Harness.measure(rows: options.rows) {
                let statement = try database.prepare("SELECT \"Z_PK\", \(RawDatabase.columnList) FROM \"Item\"")
                var registry: [Int64: ObjectItem] = [:]
                let objects = try registeredObjects(statement, into: &registry)
                consume(objects.reduce(0) { $0 &+ $1.checksum })
                consume(registry)
            }
        }
    }

    func sortedLimitObjects() throws -> Sample {
        let database = try large()
        return try Harness.measure(rows: Query.limit) {
            let statement = try sortedLimitStatement(database, withKey: true)
            var registry: [Int64: ObjectItem] = [:]
            consume(try registeredObjects(statement, into: &registry))
            consume(registry)
        }
    }

    /// Enumerate's object floor: pages of `Query.enumerateBatch` objects, each registered, read and released
    /// (the registry emptied, keeping its room) before the next, as `ModelContext.enumerate` does.
    func enumerateObjects() throws -> Sample {
        let database = try large()
        return try Harness.timeWithMemory(rows: options.largeRows) {
            let statement = try database.prepare("SELECT \"Z_PK\", \(RawDatabase.columnList) FROM \"Item\"")
            var registry: [Int64: ObjectItem] = [:]
            var checksum = 0
            while try statement.step() {
                let object = ObjectItem(statement.row(from: 1))
                registry[sqlite3_column_int64(statement.pointer, 0)] = object
                checksum &+= object.checksum
                if registry.count == Query.enumerateBatch { registry.removeAll(keepingCapacity: true) }
            }
            consume(checksum)
        }
    }
}
