import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("ModelContext: tracking, saving, rollback")
struct ModelContextTests {
    private let byTitle = FetchDescriptor<Book>(sortBy: [SortDescriptor(\.title)])

    private func insertSeedBooks(into context: ModelContext) {
        context.insert(Book(title: "The Left Hand of Darkness", author: "Ursula K. Le Guin", publisher: "Ace"))
        context.insert(Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        context.insert(Book(title: "Kindred", author: "Octavia E. Butler", publisher: "Doubleday"))
    }

    @Test("Seed 004: insert, sorted fetch, update by assignment, delete by index, reopen", arguments: StoreKind.all)
    func seedFlow(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = ModelContext(try store.container(Book.self))
        insertSeedBooks(into: context)
        try context.save()

        let sorted = try context.fetch(byTitle)
        #expect(sorted.map(\.title) == ["Dune", "Kindred", "The Left Hand of Darkness"])

        sorted[0].summary = "Spice, sand and politics."
        try context.save()
        let books = try context.fetch(byTitle)
        context.delete(books[2])
        try context.save()

        let reopened = ModelContext(try store.container(Book.self))
        let remaining = try reopened.fetch(byTitle)
        #expect(remaining.map(\.title) == ["Dune", "Kindred"])
        #expect(remaining.map(\.summary) == ["Spice, sand and politics.", ""])
        #expect(remaining.map(\.author) == ["Frank Herbert", "Octavia E. Butler"])
        #expect(remaining.map(\.publisher) == ["Chilton", "Doubleday"])
    }

    @Test("Two fetches of the same row give the same object", arguments: StoreKind.all)
    func identityMap(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Book.self))
        insertSeedBooks(into: context)
        try context.save()
        let first = try context.fetch(byTitle)
        let second = try context.fetch(FetchDescriptor<Book>(predicate: #Predicate { $0.title == "Dune" }))
        #expect(second.count == 1)
        #expect(first[0] === second[0])
    }

    @Test(
        "Models of two entities inserted alternately in one save are registered: fetches give the inserted objects",
        arguments: StoreKind.all)
    func alternatingEntitiesRegisterTheirInsertedModels(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Book.self, Reading.self))
        var books: [Book] = [], readings: [Reading] = []
        for index in 0..<50 {
            let book = Book(title: "Book \(index)", author: "A", publisher: "P")
            let reading = Reading(title: "Reading \(index)", pages: index, isFinished: false, startedAt: .now)
            context.insert(book)
            context.insert(reading)
            books.append(book)
            readings.append(reading)
        }
        try context.save()
        let fetchedBooks = try context.fetch(FetchDescriptor<Book>(sortBy: [SortDescriptor(\.title)]))
        let fetchedReadings = try context.fetch(FetchDescriptor<Reading>(sortBy: [SortDescriptor(\.pages)]))
        #expect(fetchedBooks.count == 50)
        #expect(Set(fetchedBooks.map(ObjectIdentifier.init)) == Set(books.map(ObjectIdentifier.init)))
        #expect(fetchedReadings.map(ObjectIdentifier.init) == readings.map(ObjectIdentifier.init))
        #expect(!context.hasChanges)
    }

    @Test(
        "Fetched models don't keep their context alive; once it is gone they read no context and still work",
        arguments: StoreKind.all)
    func modelsOutliveTheirContext(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, Book.self)
        let setup = ModelContext(container)
        insertSeedBooks(into: setup)
        try setup.save()
        weak var weakContext: ModelContext?
        var book: Book?
        do {
            let context = ModelContext(container)
            weakContext = context
            book = try context.fetch(byTitle).first
            #expect(book?.modelContext === context)
        }
        #expect(weakContext == nil)
        let dune = try #require(book)
        #expect(dune.modelContext == nil)
        dune.title = "Dune Messiah"
        #expect(dune.title == "Dune Messiah")
        #expect(try setup.fetch(byTitle).first?.title == "Dune")
    }

    @Test("hasChanges and the inserted, changed and deleted arrays follow each edit", arguments: StoreKind.all)
    func changeTracking(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Book.self))
        #expect(!context.hasChanges)
        let dune = Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton")
        let emma = Book(title: "Emma", author: "Jane Austen", publisher: "Murray")
        context.insert(dune)
        context.insert(emma)
        #expect(context.hasChanges)
        #expect(context.insertedModelsArray.map { ($0 as? Book)?.title } == ["Dune", "Emma"])
        try context.save()
        #expect(!context.hasChanges)
        #expect(context.insertedModelsArray.isEmpty)
        #expect(!dune.hasChanges)

        dune.summary = "Spice"
        #expect(dune.hasChanges)
        #expect(!emma.hasChanges)
        #expect(context.hasChanges)
        #expect(context.changedModelsArray.count == 1)
        #expect(context.changedModelsArray.first as? Book === dune)

        context.delete(emma)
        #expect(emma.isDeleted)
        #expect(context.deletedModelsArray.count == 1)
        #expect(context.deletedModelsArray.first as? Book === emma)
        try context.save()
        #expect(!context.hasChanges)
        #expect(context.changedModelsArray.isEmpty)
        #expect(context.deletedModelsArray.isEmpty)
        #expect(try context.fetchCount(FetchDescriptor<Book>()) == 1)
    }

    @Test("Assigning the saved value back clears the change", arguments: StoreKind.all)
    func assigningSavedValueBackIsNoChange(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Book.self))
        let dune = Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton")
        context.insert(dune)
        try context.save()
        dune.title = "Dune Messiah"
        dune.title = "Dune"
        #expect(!dune.hasChanges)
        #expect(!context.hasChanges)

        // With another property changed, the model still has changes, and they roll back.
        dune.title = "Dune Messiah"
        dune.author = "F. Herbert"
        dune.title = "Dune"
        #expect(dune.hasChanges)
        context.rollback()
        #expect(dune.title == "Dune" && dune.author == "Frank Herbert" && !dune.hasChanges)

        // A saved change is the new saved value: setting the old one again is a change, and it is written.
        dune.publisher = "Ace"
        try context.save()
        dune.publisher = "Chilton"
        #expect(dune.hasChanges)
        try context.save()
        #expect(try ModelContext(context.container).fetch(FetchDescriptor<Book>()).map(\.publisher) == ["Chilton"])
    }

    @Test(
        "A save writes only the changed columns: another context's change to other columns survives",
        arguments: StoreKind.all)
    func saveWritesOnlyChangedColumns(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let container = try store.container(Book.self)
        let setup = ModelContext(container)
        setup.insert(Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        try setup.save()

        let left = ModelContext(container)
        let right = ModelContext(try store.container(Book.self))
        let leftBook = try #require(try left.fetch(FetchDescriptor<Book>()).first)
        let rightBook = try #require(try right.fetch(FetchDescriptor<Book>()).first)
        rightBook.author = "F. Herbert"
        try right.save()
        leftBook.summary = "Spice"
        try left.save()

        #expect(
            try store.texts(#"SELECT "title" || '|' || "author" || '|' || "summary" FROM "Book""#) == [
                "Dune|F. Herbert|Spice"
            ])
    }

    /// A store of `kind` holding `count` saved books, "t0"/"a0"/"p0" and on, and a container over it.
    private func storeOfBooks(_ kind: StoreKind, _ count: Int) throws -> (store: TestStore, container: ModelContainer) {
        let store = TestStore(kind)
        let container = try store.container(Book.self)
        let setup = ModelContext(container)
        for index in 0..<count { setup.insert(Book(title: "t\(index)", author: "a\(index)", publisher: "p\(index)")) }
        try setup.save()
        return (store, container)
    }

    @Test(
        "Updates of different columns in one save, interleaved by row, each write their own columns",
        arguments: StoreKind.all)
    func interleavedUpdateShapes(_ kind: StoreKind) throws {
        let (store, container) = try storeOfBooks(kind, 6)

        let context = ModelContext(container)
        let books = try context.fetch(FetchDescriptor<Book>(sortBy: [SortDescriptor(\.title)]))
        books[0].title = "T0"
        books[1].author = "A1"
        books[2].title = "T2"
        books[3].author = "A3"
        books[3].summary = "S3"
        books[4].author = "A4"
        books[4].summary = "S4"
        books[5].summary = "S5"
        try context.save()

        #expect(
            try store.texts(#"SELECT "title" || '|' || "author" || '|' || "summary" FROM "Book" ORDER BY "Z_PK""#) == [
                "T0|a0|", "t1|A1|", "T2|a2|", "t3|A3|S3", "t4|A4|S4", "t5|a5|S5",
            ])
    }

    @Test(
        "A save writes updates and deletes in row order, whatever order the models changed in", arguments: StoreKind.all
    )
    func saveWritesInRowOrder(_ kind: StoreKind) throws {
        let (store, container) = try storeOfBooks(kind, 40)
        switch kind {
        case .sqlite:
            try store.execute(#"CREATE TABLE "WriteLog" ("n" INTEGER PRIMARY KEY, "kind" TEXT, "key" INTEGER)"#)
            try store.execute(
                #"CREATE TRIGGER "LogUpdate" AFTER UPDATE ON "Book" BEGIN INSERT INTO "WriteLog" ("kind", "key") VALUES ('update', NEW."Z_PK"); END"#
            )
            try store.execute(
                #"CREATE TRIGGER "LogDelete" AFTER DELETE ON "Book" BEGIN INSERT INTO "WriteLog" ("kind", "key") VALUES ('delete', OLD."Z_PK"); END"#
            )
        case .postgres:
            try store.execute(#"CREATE TABLE "WriteLog" ("n" bigserial PRIMARY KEY, "kind" text, "key" bigint)"#)
            try store.execute(
                #"""
                CREATE FUNCTION "LogWrite"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                    INSERT INTO "WriteLog" ("kind", "key") VALUES (lower(TG_OP), CASE TG_OP WHEN 'DELETE' THEN OLD."Z_PK" ELSE NEW."Z_PK" END);
                    RETURN NULL;
                END $$
                """#)
            try store.execute(
                #"CREATE TRIGGER "LogWrite" AFTER UPDATE OR DELETE ON "Book" FOR EACH ROW EXECUTE FUNCTION "LogWrite"()"#
            )
        }

        let context = ModelContext(container)
        var generator = SeededGenerator(seed: 8)
        let books = try context.fetch(FetchDescriptor<Book>()).shuffled(using: &generator)
        for book in books[..<20] { book.author = "changed" }
        for book in books[20..<30] { context.delete(book) }
        try context.save()

        let log = try store.texts(#"SELECT "kind" || ' ' || CAST("key" AS TEXT) FROM "WriteLog" ORDER BY "n""#)
        let keys = { (kind: String) in
            log.filter { $0.hasPrefix(kind + " ") }.map { Int64($0.dropFirst(kind.count + 1)) ?? -1 }
        }
        #expect(keys("update").count == 20)
        #expect(keys("update") == keys("update").sorted())
        #expect(keys("delete").count == 10)
        #expect(keys("delete") == keys("delete").sorted())
    }

    @Test("rollback restores changed values, forgets inserts and brings back deletes", arguments: StoreKind.all)
    func rollback(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Book.self))
        let dune = Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton")
        let emma = Book(title: "Emma", author: "Jane Austen", publisher: "Murray")
        context.insert(dune)
        context.insert(emma)
        try context.save()

        dune.title = "Dune Messiah"
        context.delete(emma)
        let kindred = Book(title: "Kindred", author: "Octavia E. Butler", publisher: "Doubleday")
        context.insert(kindred)
        context.rollback()

        #expect(!context.hasChanges)
        #expect(dune.title == "Dune")
        #expect(!dune.hasChanges)
        #expect(!emma.isDeleted)
        #expect(kindred.modelContext == nil)
        #expect(try context.fetch(byTitle).map(\.title) == ["Dune", "Emma"])
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Book>()) == 2)
    }

    @Test(
        "rollback restores optional and Codable values (regression: cached optionals read back as nil)",
        arguments: StoreKind.all)
    func rollbackRestoresCachedValues(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Everything.self))
        let model = Everything()
        model.optionalGenre = .poetry
        model.optionalDimensions = Dimensions(width: 1, height: 2, label: "saved")
        model.genre = .poetry
        context.insert(model)
        try context.save()

        model.optionalGenre = .fiction
        model.optionalDimensions = nil
        model.genre = .fiction
        context.rollback()
        #expect(model.optionalGenre == .poetry)
        #expect(model.optionalDimensions == Dimensions(width: 1, height: 2, label: "saved"))
        #expect(model.genre == .poetry)
    }

    @Test("transaction saves what its block did, and rolls it back when the block throws", arguments: StoreKind.all)
    func transaction(_ kind: StoreKind) throws {
        struct Abort: Error {}
        let store = TestStore(kind)
        let context = ModelContext(try store.container(Book.self))
        try context.transaction {
            context.insert(Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        }
        #expect(!context.hasChanges)
        #expect(throws: Abort.self) {
            try context.transaction {
                context.insert(Book(title: "Emma", author: "Jane Austen", publisher: "Murray"))
                throw Abort()
            }
        }
        #expect(!context.hasChanges)
        let reopened = ModelContext(try store.container(Book.self))
        #expect(try reopened.fetch(byTitle).map(\.title) == ["Dune"])
    }

    @Test("persistentModelID is temporary until the save, then permanent and stable", arguments: StoreKind.all)
    func temporaryThenPermanentIdentifier(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, Book.self)
        let context = ModelContext(container)
        let dune = Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton")
        context.insert(dune)
        let temporary = dune.persistentModelID
        #expect(temporary.isTemporary)
        #expect(temporary.entityName == "Book")
        try context.save()
        let permanent = dune.persistentModelID
        #expect(!permanent.isTemporary)
        #expect(permanent != temporary)
        #expect(dune.persistentModelID == permanent)

        let other = ModelContext(container)
        let found: Book = try other.existingModel(for: permanent)
        #expect(found.title == "Dune")
        #expect(found.persistentModelID == permanent)
    }

    @Test("PersistentIdentifier survives a JSON round trip and orders by entity then row", arguments: StoreKind.all)
    func identifierCodableAndComparable(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Book.self))
        let books = [
            Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton"),
            Book(title: "Emma", author: "Jane Austen", publisher: "Murray"),
        ]
        for book in books { context.insert(book) }
        let temporary = books[0].persistentModelID
        try context.save()
        let identifiers = books.map(\.persistentModelID)

        let decoded = try JSONDecoder().decode([PersistentIdentifier].self, from: JSONEncoder().encode(identifiers))
        #expect(decoded == identifiers)
        let decodedTemporary = try JSONDecoder().decode(
            PersistentIdentifier.self, from: JSONEncoder().encode(temporary))
        #expect(decodedTemporary == temporary)
        #expect(decodedTemporary.isTemporary)

        #expect(identifiers[0] < identifiers[1])
        #expect(!(identifiers[1] < identifiers[0]))
        #expect([identifiers[1], identifiers[0]].sorted() == identifiers)
        #expect(!(temporary < temporary))
        #expect((identifiers[1] < temporary) != (temporary < identifiers[1]))
    }

    @Test("A save writes its changed models in the order of their rows' keys, whatever order they changed in")
    func changedModelsAreSavedInKeyOrder() throws {
        let context = ModelContext(try freshContainer(.sqlite, Book.self))
        let books = (0..<40).map { Book(title: "Book \($0)", author: "A", publisher: "P") }
        for book in books { context.insert(book) }
        try context.save()
        var generator = SystemRandomNumberGenerator()
        for book in books.shuffled(using: &generator) { book.summary = "Changed" }

        let recorder = SaveRecorder(context)
        try context.save()

        let updated = try #require(recorder.recorded.first).updated
        #expect(updated.count == books.count)
        #expect(updated.map { $0.primaryKey ?? 0 } == books.map { $0.persistentModelID.primaryKey ?? 0 }.sorted())
    }

    @Test("didSave carries the inserted, updated and deleted identifiers", arguments: StoreKind.all)
    func didSaveNotification(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Book.self))
        let dune = Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton")
        let emma = Book(title: "Emma", author: "Jane Austen", publisher: "Murray")
        context.insert(dune)
        context.insert(emma)
        try context.save()

        let kindred = Book(title: "Kindred", author: "Octavia E. Butler", publisher: "Doubleday")
        context.insert(kindred)
        dune.summary = "Spice"
        context.delete(emma)
        let deletedID = emma.persistentModelID

        let recorder = SaveRecorder(context)
        try context.save()

        #expect(!kindred.persistentModelID.isTemporary)
        #expect(
            recorder.recorded == [
                SaveRecorder.Save(
                    inserted: [kindred.persistentModelID], updated: [dune.persistentModelID], deleted: [deletedID])
            ])
    }

    @Test("A didSave userInfo an observer keeps still holds its save's identifiers after later saves of any context")
    func keptDidSaveUserInfo() throws {
        /// The `userInfo` of every `didSave` of one context, kept as received.
        final class KeptUserInfos: @unchecked Sendable {
            // Unchecked: `kept` is only touched under `lock`.
            private let lock = NSLock()
            private var kept: [[AnyHashable: Any]] = []
            func append(_ userInfo: [AnyHashable: Any]) { lock.withLock { kept.append(userInfo) } }
            func identifiers(_ key: ModelContext.NotificationKey) -> [[PersistentIdentifier]?] {
                lock.withLock { kept.map { $0[key.rawValue] as? [PersistentIdentifier] } }
            }
        }
        let container = try freshContainer(.sqlite, Book.self)
        let context = ModelContext(container)
        let other = ModelContext(container)
        let books = (0..<3).map { Book(title: "Book \($0)", author: "A", publisher: "P") }
        for book in books { context.insert(book) }
        try context.save()
        let kept = KeptUserInfos()
        let observer = NotificationCenter.default.addObserver(
            forName: ModelContext.didSave, object: context, queue: nil
        ) { note in kept.append(note.userInfo ?? [:]) }
        defer { NotificationCenter.default.removeObserver(observer) }
        for book in books {
            book.summary = "Changed"
            try context.save()
            // Another context's save between them fills the dictionary the last one posted.
            other.insert(Book(title: "Other \(book.title)", author: "B", publisher: "Q"))
            try other.save()
        }
        #expect(kept.identifiers(.updatedIdentifiers) == books.map { [$0.persistentModelID] })
        #expect(kept.identifiers(.insertedIdentifiers) == [[], [], []])
        #expect(kept.identifiers(.deletedIdentifiers) == [[], [], []])
    }

    @Test("Inserting a model whose class is not in the schema makes save throw unknownEntity", arguments: StoreKind.all)
    func unknownEntity(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Book.self))
        context.insert(Stray(name: "lost"))
        #expect(throws: StrataError.unknownEntity("Stray")) { try context.save() }
        #expect(throws: StrataError.unknownEntity("Stray")) { try context.fetch(FetchDescriptor<Stray>()) }
    }
}
