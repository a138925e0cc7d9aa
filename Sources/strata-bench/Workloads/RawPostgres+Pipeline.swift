import CLibPQ
import Foundation

extension RawPostgresConnection {
    /// How many statements the floor sends before it reads their results: enough to hide the round trips, few
    /// enough that neither side's socket buffer fills while the other is only writing.
    static let pipelineDepth = 1_000

    /// Runs one prepared statement per element of `rows` in libpq's pipeline mode, `pipelineDepth` statements per
    /// sync, so a save of many rows waits for the server once per batch instead of once per row — what a libpq
    /// client that writes rows one statement each does to be fast (Strata's saves do the same).
    ///
    /// - Throws: the first statement's error; the pipeline is left and the connection stays usable.
    func pipeline<Row>(_ sql: String, _ rows: some Sequence<Row>, parameters: (Row) -> [RawPostgresParameter]) throws {
        var iterator = rows.makeIterator()
        var next = iterator.next()
        guard let first = next else { return }
        let name = try prepare(sql, types: parameters(first).map(\.type))
        guard PQenterPipelineMode(handle) == 1 else { throw error("enter pipeline mode") }
        defer { PQexitPipelineMode(handle) }
        while next != nil {
            var sent = 0
            while let row = next, sent < Self.pipelineDepth {
                try send(name, parameters(row))
                sent += 1
                next = iterator.next()
            }
            guard PQpipelineSync(handle) == 1 else { throw error("pipeline sync") }
            try drainPipeline(statements: sent, sql)
        }
    }

    private func send(_ name: String, _ parameters: [RawPostgresParameter]) throws {
        let sent = Self.withBinaryParameters(parameters) { values, lengths, formats in
            PQsendQueryPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 1)
        }
        guard sent == 1 else { throw error("send \(name)") }
    }

    /// Reads the results of `statements` pipelined statements and their sync, failing on the first error (after
    /// reading up to the sync, so the connection leaves pipeline mode cleanly).
    private func drainPipeline(statements: Int, _ sql: String) throws {
        var failure: RawSQLiteError?
        var synced = false
        while !synced {
            guard let result = PQgetResult(handle) else { continue }
            switch PQresultStatus(result) {
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK: break
            case PGRES_PIPELINE_SYNC: synced = true
            default:
                if failure == nil {
                    failure = RawSQLiteError(description: "\(sql): \(String(cString: PQresultErrorMessage(result)))")
                }
            }
            PQclear(result)
        }
        if let failure { throw failure }
    }
}
