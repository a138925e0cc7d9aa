import Foundation
import Strata

// The models `sync` devices share with their hub: attributes, a to-one with its inverse, and a many-to-many.

@Model final class SyncedNote {
    @Attribute(.unique, .preserveValueOnDeletion) var id: UUID
    var title: String
    var count: Int
    var detail: String?

    init(title: String, count: Int) {
        id = UUID()
        self.title = title
        self.count = count
    }
}

@Model final class SyncedShelf {
    @Attribute(.unique, .preserveValueOnDeletion) var id: UUID
    var name: String
    @Relationship(deleteRule: .nullify, inverse: \SyncedBook.shelf) var books: [SyncedBook] = []

    init(name: String) {
        id = UUID()
        self.name = name
    }
}

@Model final class SyncedBook {
    @Attribute(.unique, .preserveValueOnDeletion) var id: UUID
    var title: String
    var shelf: SyncedShelf?

    init(title: String, shelf: SyncedShelf?) {
        id = UUID()
        self.title = title
        self.shelf = shelf
    }
}

@Model final class SyncedArticle {
    @Attribute(.unique, .preserveValueOnDeletion) var id: UUID
    var title: String
    @Relationship(inverse: \SyncedTag.articles) var tags: [SyncedTag] = []

    init(title: String) {
        id = UUID()
        self.title = title
    }
}

@Model final class SyncedTag {
    @Attribute(.unique, .preserveValueOnDeletion) var id: UUID
    var name: String
    var articles: [SyncedArticle] = []

    init(name: String) {
        id = UUID()
        self.name = name
    }
}

enum SyncedModels {
    static let schema = Schema([SyncedNote.self, SyncedShelf.self, SyncedBook.self, SyncedArticle.self, SyncedTag.self])

    /// Every row of `container` as one line: identity, attributes, and relationships by the identities they point
    /// to, from both sides.
    static func rows(of container: ModelContainer) throws -> [String] {
        let context = ModelContext(container)
        var rows: [String] = []
        rows += try context.fetch(FetchDescriptor<SyncedNote>()).map {
            "note \($0.id) \($0.title) \($0.count) \($0.detail ?? "-")"
        }
        rows += try context.fetch(FetchDescriptor<SyncedShelf>()).map {
            "shelf \($0.id) \($0.name) [\($0.books.map(\.id.uuidString).sorted().joined(separator: ","))]"
        }
        rows += try context.fetch(FetchDescriptor<SyncedBook>()).map {
            "book \($0.id) \($0.title) on \($0.shelf?.id.uuidString ?? "-")"
        }
        rows += try context.fetch(FetchDescriptor<SyncedArticle>()).map {
            "article \($0.id) \($0.title) [\($0.tags.map(\.id.uuidString).sorted().joined(separator: ","))]"
        }
        rows += try context.fetch(FetchDescriptor<SyncedTag>()).map {
            "tag \($0.id) \($0.name) [\($0.articles.map(\.id.uuidString).sorted().joined(separator: ","))]"
        }
        return rows.sorted()
    }
}
