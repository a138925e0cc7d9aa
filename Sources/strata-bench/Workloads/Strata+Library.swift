import Foundation
import Strata

/// The relationship workloads with Strata: faulting a to-one relationship across a list, saving changes to two
/// related entities, and a delete that cascades.
extension StrataWorkloads {
    /// Runs `body` with a fresh context on a fresh store holding `shape`'s authors and books (inserted and saved
    /// through Strata, untimed), then removes the store.
    func withLibrary(
        _ shape: LibraryShape, _ body: (ModelContext, SQLiteStore?) throws -> Sample
    ) throws -> Sample {
        let path = TemporaryStore.makePath("strata-library")
        defer { TemporaryStore.remove(path) }
        let container = try ModelContainer(
            for: Author.self, Book.self,
            configurations: ModelConfiguration(url: URL(fileURLWithPath: path)))
        if !options.recordsHistory { (container.store as? SQLiteStore)?.suspendHistoryRecording(true) }
        try fill(container, with: shape)
        return try body(ModelContext(container), container.store as? SQLiteStore)
    }

    /// Inserts and saves `shape`'s authors and books through a context of their own, gone with its models
    /// before the workload starts, so the workload's memory is its own (the floor's store is filled by SQL).
    private func fill(_ container: ModelContainer, with shape: LibraryShape) throws {
        let setup = ModelContext(container)
        let authors = (0..<shape.authors).map { Author(number: $0) }
        for author in authors { setup.insert(author) }
        for number in 0..<shape.books {
            setup.insert(Book(number: number, author: authors[shape.author(ofBook: number)]))
        }
        try setup.save()
    }

    /// Workload 12: every book fetched and its author's name read (`book.author?.name`); the sample's `queries`
    /// counts the statements the store ran for it.
    func authorNames() throws -> Sample {
        try withLibrary(options.library) { context, store in
            let before = store?.executedStatementCount ?? 0
            var sample = try Harness.measure(rows: options.library.books) {
                let books = try context.fetch(FetchDescriptor<Book>())
                consume(books.reduce(0) { $0 &+ $1.title.utf8.count &+ ($1.author?.name.utf8.count ?? 0) })
            }
            sample.queries = store.map { $0.executedStatementCount - before }
            return sample
        }
    }

    /// Workload 12b: as 12, through `fetch(_:batchSize:)` in batches of `Query.smallBatch`, so the books are
    /// registered a batch at a time while their authors are read.
    func authorNamesInBatches() throws -> Sample {
        try withLibrary(options.library) { context, store in
            let before = store?.executedStatementCount ?? 0
            var sample = try Harness.measure(rows: options.library.books) {
                let books = try context.fetch(FetchDescriptor<Book>(), batchSize: Query.smallBatch)
                consume(books.reduce(0) { $0 &+ $1.title.utf8.count &+ ($1.author?.name.utf8.count ?? 0) })
            }
            sample.queries = store.map { $0.executedStatementCount - before }
            return sample
        }
    }

    /// Workload 13: every book's pages changed, every tenth book moved to the next author, every author renamed,
    /// then `save()` (the fetches before it untimed).
    func saveLibraryChanges() throws -> Sample {
        let shape = options.library
        return try withLibrary(shape) { context, _ in
            let authors = try context.fetch(FetchDescriptor<Author>(sortBy: [SortDescriptor(\.number)]))
            let books = try context.fetch(FetchDescriptor<Book>(sortBy: [SortDescriptor(\.number)]))
            return Sample(
                milliseconds: try Harness.time {
                    for book in books {
                        book.pages += 1
                        if book.number.isMultiple(of: 10) {
                            book.author = authors[(shape.author(ofBook: book.number) + 1) % shape.authors]
                        }
                    }
                    for author in authors { author.name = "renamed-\(author.number)" }
                    try context.save()
                })
        }
    }

    /// Workload 14: half the authors deleted with `delete(model:where:)`, their books by the cascade, then `save()`.
    func cascadeDelete() throws -> Sample {
        let shape = options.cascadeLibrary
        return try withLibrary(shape) { context, _ in
            let half = shape.authors / 2
            return Sample(
                milliseconds: try Harness.time {
                    try context.delete(model: Author.self, where: #Predicate { $0.number < half })
                    try context.save()
                })
        }
    }
}
