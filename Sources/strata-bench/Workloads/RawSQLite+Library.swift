import CSQLite
import Foundation

/// The relationship workloads' floors: authors and books in two tables joined by a foreign key, written by hand.
extension RawWorkloads {
    /// Runs `body` with a fresh store holding `shape`'s authors and books, then removes it.
    func withLibrary(_ shape: LibraryShape, _ body: (RawDatabase) throws -> Sample) throws -> Sample {
        let path = TemporaryStore.makePath("raw-library")
        defer { TemporaryStore.remove(path) }
        let database = try RawDatabase(path: path)
        try database.execute(
            """
            CREATE TABLE "Author" ("Z_PK" INTEGER PRIMARY KEY, "number" INTEGER NOT NULL, "name" TEXT NOT NULL);
            CREATE TABLE "Book" ("Z_PK" INTEGER PRIMARY KEY, "number" INTEGER NOT NULL, "title" TEXT NOT NULL, \
            "pages" INTEGER NOT NULL, "author" INTEGER REFERENCES "Author" ("Z_PK"));
            CREATE INDEX "Book_author_index" ON "Book" ("author");
            """)
        let author = try database.prepare("INSERT INTO \"Author\" (\"Z_PK\", \"number\", \"name\") VALUES (?, ?, ?)")
        let book = try database.prepare(
            "INSERT INTO \"Book\" (\"number\", \"title\", \"pages\", \"author\") VALUES (?, ?, ?, ?)")
        try database.transaction {
            for number in 0..<shape.authors {
                try author.insertNumbered(number, prefix: "author")
            }
            for number in 0..<shape.books {
                book.bind(number, at: 1)
                book.bind("book-\(number)", at: 2)
                book.bind(100 + number % 400, at: 3)
                book.bind(shape.author(ofBook: number) + 1, at: 4)
                _ = try book.step()
                sqlite3_reset(book.pointer)
            }
        }
        return try body(database)
    }

    /// Workload 12's floor: every book's title with its author's name, in one `JOIN`.
    func authorNames() throws -> Sample {
        try withLibrary(options.library) { database in
            try Harness.measure(rows: options.library.books) {
                let statement = try database.prepare(
                    """
                    SELECT "Book"."title", "Author"."name" FROM "Book" LEFT JOIN "Author" ON "Author"."Z_PK" = "Book"."author"
                    """)
                var rows: [(title: String, author: String?)] = []
                while try statement.step() {
                    let title = String(cString: sqlite3_column_text(statement.pointer, 0))
                    rows.append((title, sqlite3_column_text(statement.pointer, 1).map { String(cString: $0) }))
                }
                consume(rows.reduce(0) { $0 &+ $1.title.utf8.count &+ ($1.author?.utf8.count ?? 0) })
            }
        }
    }

    /// Workload 13's floor: every book's pages changed, every tenth book moved to the next author, every author
    /// renamed — one `UPDATE` each, in one transaction.
    func saveLibraryChanges() throws -> Sample {
        let shape = options.library
        return try withLibrary(shape) { database in
            Sample(
                milliseconds: try Harness.time {
                    let book = try database.prepare(
                        "UPDATE \"Book\" SET \"pages\" = ?, \"author\" = ? WHERE \"Z_PK\" = ?")
                    let author = try database.prepare("UPDATE \"Author\" SET \"name\" = ? WHERE \"Z_PK\" = ?")
                    try database.transaction {
                        for number in 0..<shape.books {
                            let owner =
                                number.isMultiple(of: 10)
                                ? (shape.author(ofBook: number) + 1) % shape.authors : shape.author(ofBook: number)
                            book.bind(101 + number % 400, at: 1)
                            book.bind(owner + 1, at: 2)
                            book.bind(number + 1, at: 3)
                            _ = try book.step()
                            sqlite3_reset(book.pointer)
                        }
                        for number in 0..<shape.authors {
                            author.bind("renamed-\(number)", at: 1)
                            author.bind(number + 1, at: 2)
                            _ = try author.step()
                            sqlite3_reset(author.pointer)
                        }
                    }
                })
        }
    }

    /// Workload 14's floor: half the authors deleted with their books, two `DELETE`s in one transaction.
    func cascadeDelete() throws -> Sample {
        let shape = options.cascadeLibrary
        return try withLibrary(shape) { database in
            Sample(
                milliseconds: try Harness.time {
                    let books = try database.prepare(
                        """
                        DELETE FROM "Book" WHERE "author" IN (SELECT "Z_PK" FROM "Author" WHERE "number" < ?)
                        """)
                    let authors = try database.prepare("DELETE FROM \"Author\" WHERE \"number\" < ?")
                    books.bind(shape.authors / 2, at: 1)
                    authors.bind(shape.authors / 2, at: 1)
                    try database.transaction {
                        _ = try books.step()
                        _ = try authors.step()
                    }
                })
        }
    }
}
