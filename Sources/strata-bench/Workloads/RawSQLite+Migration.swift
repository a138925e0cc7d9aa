import Foundation

extension RawWorkloads {
    /// The floor of an added attribute: SQLite's own `ALTER TABLE … ADD COLUMN` on a `largeRows`-row table.
    func addColumn() throws -> Sample {
        try withStore(rows: options.largeRows) { database in
            Sample(
                milliseconds: try Harness.time {
                    try database.execute("ALTER TABLE \"Item\" ADD COLUMN \"rating\" INTEGER NOT NULL DEFAULT 0")
                })
        }
    }

    /// The floor of a dropped attribute: the hand-written table rebuild (new table, `INSERT INTO … SELECT`, drop,
    /// rename, index) in one transaction.
    func rebuildTable() throws -> Sample {
        try withStore(rows: options.largeRows) { database in
            let kept = RawDatabase.columns.filter { $0 != "flagged" }.map { "\"\($0)\"" }.joined(separator: ", ")
            return Sample(
                milliseconds: try Harness.time {
                    try database.transaction {
                        try database.execute(
                            """
                            CREATE TABLE "Item_new" ("Z_PK" INTEGER PRIMARY KEY, "id" INTEGER NOT NULL, \
                            "score" REAL NOT NULL, "name" TEXT NOT NULL, "created" REAL NOT NULL, "isActive" INTEGER NOT NULL, \
                            "note" TEXT, "count" INTEGER NOT NULL, "category" TEXT NOT NULL, "weight" REAL NOT NULL)
                            """)
                        try database.execute(
                            "INSERT INTO \"Item_new\" (\"Z_PK\", \(kept)) SELECT \"Z_PK\", \(kept) FROM \"Item\"")
                        try database.execute("DROP TABLE \"Item\"")
                        try database.execute("ALTER TABLE \"Item_new\" RENAME TO \"Item\"")
                        try database.execute("CREATE INDEX \"Item_score_index\" ON \"Item\" (\"score\")")
                    }
                })
        }
    }
}
