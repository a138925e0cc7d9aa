import CSQLite
import Foundation

/// The to-many workloads' floors, written by hand: a count and a join per parent, a many-to-many through a join
/// table, and one `UPDATE`.
extension RawWorkloads {
    /// Workload 19a's floor: every author's name with the number of its books, one correlated `COUNT` each.
    func bookCounts() throws -> Sample {
        try withLibrary(options.library) { database in
            try Harness.measure(rows: options.library.authors) {
                let statement = try database.prepare(
                    """
                    SELECT "name", (SELECT COUNT(*) FROM "Book" WHERE "Book"."author" = "Author"."Z_PK") FROM "Author"
                    """)
                var rows: [(name: String, books: Int)] = []
                while try statement.step() {
                    let name = String(cString: sqlite3_column_text(statement.pointer, 0))
                    rows.append((name, Int(sqlite3_column_int64(statement.pointer, 1))))
                }
                consume(rows.reduce(0) { $0 &+ $1.name.utf8.count &+ $1.books })
            }
        }
    }

    /// Workload 19b's floor: every author's name with its books' titles, one `LEFT JOIN` read in author order.
    func bookTitles() throws -> Sample {
        try withLibrary(options.library) { database in
            try Harness.measure(rows: options.library.authors) {
                let statement = try database.prepare(
                    """
                    SELECT "Author"."Z_PK", "Author"."name", "Book"."title" FROM "Author" \
                    LEFT JOIN "Book" ON "Book"."author" = "Author"."Z_PK" ORDER BY "Author"."Z_PK"
                    """)
                let rows = try Self.grouped(statement)
                consume(rows.reduce(0) { $0 &+ $1.name.utf8.count &+ $1.children.reduce(0) { $0 &+ $1.utf8.count } })
            }
        }
    }

    /// Workload 20's floor: every photo's caption with its tags' names, through the join table in one query.
    func photoTags() throws -> Sample {
        let shape = options.tagging
        let path = TemporaryStore.makePath("raw-tagging")
        defer { TemporaryStore.remove(path) }
        let database = try RawDatabase(path: path)
        try database.execute(
            """
            CREATE TABLE "Photo" ("Z_PK" INTEGER PRIMARY KEY, "number" INTEGER NOT NULL, "caption" TEXT NOT NULL);
            CREATE TABLE "Tag" ("Z_PK" INTEGER PRIMARY KEY, "number" INTEGER NOT NULL, "name" TEXT NOT NULL);
            CREATE TABLE "PhotoTag" ("photo" INTEGER NOT NULL REFERENCES "Photo" ("Z_PK"), \
            "tag" INTEGER NOT NULL REFERENCES "Tag" ("Z_PK"), PRIMARY KEY ("photo", "tag")) WITHOUT ROWID;
            CREATE INDEX "PhotoTag_tag_index" ON "PhotoTag" ("tag");
            """)
        let tag = try database.prepare("INSERT INTO \"Tag\" (\"Z_PK\", \"number\", \"name\") VALUES (?, ?, ?)")
        let photo = try database.prepare("INSERT INTO \"Photo\" (\"Z_PK\", \"number\", \"caption\") VALUES (?, ?, ?)")
        let link = try database.prepare("INSERT INTO \"PhotoTag\" (\"photo\", \"tag\") VALUES (?, ?)")
        try database.transaction {
            for number in 0..<shape.tags {
                try tag.insertNumbered(number, prefix: "tag")
            }
            for number in 0..<shape.photos {
                try photo.insertNumbered(number, prefix: "photo")
                for tagged in shape.tags(ofPhoto: number) {
                    link.bind(number + 1, at: 1)
                    link.bind(tagged + 1, at: 2)
                    _ = try link.step()
                    sqlite3_reset(link.pointer)
                }
            }
        }
        return try Harness.measure(rows: shape.photos) {
            let statement = try database.prepare(
                """
                SELECT "Photo"."Z_PK", "Photo"."caption", "Tag"."name" FROM "Photo" \
                LEFT JOIN "PhotoTag" ON "PhotoTag"."photo" = "Photo"."Z_PK" \
                LEFT JOIN "Tag" ON "Tag"."Z_PK" = "PhotoTag"."tag" ORDER BY "Photo"."Z_PK"
                """)
            let rows = try Self.grouped(statement)
            consume(rows.reduce(0) { $0 &+ $1.name.utf8.count &+ $1.children.reduce(0) { $0 &+ $1.utf8.count } })
        }
    }

    /// Workload 21's floor: one book's title changed in a transaction. Untimed, the author's books are read first
    /// and another book's title saved, as on Strata's side.
    func saveOneChangeInToMany() throws -> Sample {
        try withLibrary(Options.largeToMany) { database in
            let read = try database.prepare(
                "SELECT \"Z_PK\", \"number\", \"title\", \"pages\" FROM \"Book\" WHERE \"author\" = 1")
            var keys: [Int] = []
            while try read.step() { keys.append(Int(sqlite3_column_int64(read.pointer, 0))) }
            guard keys.count > 1 else { return Sample(milliseconds: 0) }
            let statement = try database.prepare("UPDATE \"Book\" SET \"title\" = ? WHERE \"Z_PK\" = ?")
            statement.bind("warm-up", at: 1)
            statement.bind(keys[0], at: 2)
            try database.transaction { _ = try statement.step() }
            sqlite3_reset(statement.pointer)
            return Sample(
                milliseconds: try Harness.time {
                    statement.bind("changed", at: 1)
                    statement.bind(keys[keys.count / 2], at: 2)
                    try database.transaction { _ = try statement.step() }
                    sqlite3_reset(statement.pointer)
                })
        }
    }

    /// The rows of `statement` (a parent's key, its text, a child's text or `NULL`), grouped by parent in the order
    /// read.
    private static func grouped(_ statement: RawStatement) throws -> [(name: String, children: [String])] {
        var rows: [(name: String, children: [String])] = []
        var parent: Int64?
        while try statement.step() {
            let key = sqlite3_column_int64(statement.pointer, 0)
            if key != parent {
                parent = key
                rows.append((String(cString: sqlite3_column_text(statement.pointer, 1)), []))
            }
            if let child = sqlite3_column_text(statement.pointer, 2) {
                rows[rows.count - 1].children.append(String(cString: child))
            }
        }
        return rows
    }
}
