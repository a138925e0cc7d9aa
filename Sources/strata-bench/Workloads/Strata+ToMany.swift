import Foundation
import Strata

/// The to-many workloads with Strata: a to-many relationship read across a list, a many-to-many read, and one
/// property of a model in a large to-many changed and saved.
extension StrataWorkloads {
    /// Workload 19a: every author fetched, its name and `books.count` read.
    func bookCounts() throws -> Sample {
        try withLibrary(options.library) { context, store in
            let before = store?.executedStatementCount ?? 0
            var sample = try Harness.measure(rows: options.library.authors) {
                let authors = try context.fetch(FetchDescriptor<Author>())
                consume(authors.reduce(0) { $0 &+ $1.name.utf8.count &+ $1.books.count })
            }
            sample.queries = store.map { $0.executedStatementCount - before }
            return sample
        }
    }

    /// Workload 19b: every author fetched, its name and `books.map(\.title)` read.
    func bookTitles() throws -> Sample {
        try withLibrary(options.library) { context, store in
            let before = store?.executedStatementCount ?? 0
            var sample = try Harness.measure(rows: options.library.authors) {
                let authors = try context.fetch(FetchDescriptor<Author>())
                let titles = authors.map { ($0.name, $0.books.map(\.title)) }
                consume(titles.reduce(0) { $0 &+ $1.0.utf8.count &+ $1.1.reduce(0) { $0 &+ $1.utf8.count } })
            }
            sample.queries = store.map { $0.executedStatementCount - before }
            return sample
        }
    }

    /// Workload 20: every photo fetched, its caption and the names of its tags read (`photo.tags.map(\.name)`).
    func photoTags() throws -> Sample {
        let shape = options.tagging
        let path = TemporaryStore.makePath("strata-tagging")
        defer { TemporaryStore.remove(path) }
        let container = try ModelContainer(
            for: Photo.self, Tag.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: path)))
        if !options.recordsHistory { (container.store as? SQLiteStore)?.suspendHistoryRecording(true) }
        let setup = ModelContext(container)
        let tags = (0..<shape.tags).map { Tag(number: $0) }
        for tag in tags { setup.insert(tag) }
        for number in 0..<shape.photos {
            let photo = Photo(number: number)
            setup.insert(photo)
            photo.tags = shape.tags(ofPhoto: number).map { tags[$0] }
        }
        try setup.save()
        let context = ModelContext(container)
        let store = container.store as? SQLiteStore
        let before = store?.executedStatementCount ?? 0
        var sample = try Harness.measure(rows: shape.photos) {
            let photos = try context.fetch(FetchDescriptor<Photo>())
            let names = photos.map { ($0.caption, $0.tags.map(\.name)) }
            consume(names.reduce(0) { $0 &+ $1.0.utf8.count &+ $1.1.reduce(0) { $0 &+ $1.utf8.count } })
        }
        sample.queries = store.map { $0.executedStatementCount - before }
        return sample
    }

    /// Workload 21: an author's 1,000 books read (untimed), then one book's title changed and saved. A first change
    /// of another book is saved untimed, as an editor's earlier taps would have.
    func saveOneChangeInToMany() throws -> Sample {
        try withLibrary(Options.largeToMany) { context, store in
            guard let author = try context.fetch(FetchDescriptor<Author>()).first, author.books.count > 1 else {
                return Sample(milliseconds: 0)
            }
            let books = author.books
            books[0].title = "warm-up"
            try context.save()
            let before = store?.executedStatementCount ?? 0
            var sample = Sample(
                milliseconds: try Harness.time {
                    books[books.count / 2].title = "changed"
                    try context.save()
                })
            sample.queries = store.map { $0.executedStatementCount - before }
            return sample
        }
    }
}
