import CLibPQ
import Foundation

/// PostgreSQL's object floor: the libpq floor's binary rows read into `ObjectItem`s (an `@Observable final class`)
/// registered in a dictionary keyed by primary key, as `RawSQLite+ObjectFloor` does on SQLite — what any observable,
/// identity-mapped model costs, told apart from what Strata adds.
extension RawPostgresWorkloads {
    /// The rows of `result` (primary key in column 0, the ten values after it) as registered objects.
    private func registeredObjects(_ result: OpaquePointer, into registry: inout [Int: ObjectItem]) -> [ObjectItem] {
        (0..<PQntuples(result)).map { row in
            let object = ObjectItem(RawPostgresRows.item(result, row, from: 1))
            registry[RawPostgresRows.int(result, row, 0)] = object
            return object
        }
    }

    func fetchAllObjects() throws -> Sample {
        try withStore(rows: options.rows) { connection in
            try Harness.measure(rows: options.rows) {
                let result = try connection.run("SELECT \"Z_PK\", \(RawPostgresConnection.columnList) FROM \"Item\"")
                defer { PQclear(result) }
                var registry: [Int: ObjectItem] = [:]
                let objects = registeredObjects(result, into: &registry)
                consume(objects.reduce(0) { $0 &+ $1.checksum })
                consume(registry)
            }
        }
    }

    func sortedLimitObjects() throws -> Sample {
        let connection = try large()
        return try Harness.measure(rows: Query.limit) {
            let result = try sortedLimitRows(connection, withKey: true)
            defer { PQclear(result) }
            var registry: [Int: ObjectItem] = [:]
            consume(registeredObjects(result, into: &registry))
            consume(registry)
        }
    }

    /// Enumerate's object floor: the floor's binary cursor, each page's objects registered, read and released (the
    /// registry emptied, keeping its room) before the next, as `ModelContext.enumerate` does.
    func enumerateObjects() throws -> Sample {
        let connection = try large()
        return try Harness.timeWithMemory(rows: options.largeRows) {
            var checksum = 0
            try connection.transaction {
                try connection.execute(
                    "DECLARE rows BINARY NO SCROLL CURSOR FOR SELECT \"Z_PK\", \(RawPostgresConnection.columnList) FROM \"Item\""
                )
                var registry: [Int: ObjectItem] = [:]
                while true {
                    let result = try connection.query("FETCH \(Query.enumerateBatch) FROM rows")
                    defer { PQclear(result) }
                    if PQntuples(result) == 0 { break }
                    for object in registeredObjects(result, into: &registry) { checksum &+= object.checksum }
                    registry.removeAll(keepingCapacity: true)
                }
            }
            consume(checksum)
        }
    }
}
