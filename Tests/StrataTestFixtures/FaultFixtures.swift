import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// A writer, reached from a novel as a fault: a model whose properties are read when first used.
@Model final class FaultWriter {
    var name: String
    var born: Int
    var genres: [String]?

    init(name: String, born: Int, genres: [String]?) {
        self.name = name
        self.born = born
        self.genres = genres
    }
}

/// A novel and its writer (a to-one relationship).
@Model final class FaultNovel {
    var title: String
    var writer: FaultWriter?

    init(title: String, writer: FaultWriter?) {
        self.title = title
        self.writer = writer
    }
}

/// A store of one novel by one writer, and a new context over it holding the novel and, through its relationship,
/// the writer as a fault whose properties were not read yet.
struct FaultScene {
    let store: TestStore
    let context: ModelContext
    let novel: FaultNovel
    let writer: FaultWriter

    init(_ kind: StoreKind) throws {
        store = TestStore(kind)
        try store.seed(FaultWriter.self, FaultNovel.self) { context in
            let writer = FaultWriter(name: "Le Guin", born: 1929, genres: ["science fiction", "fantasy"])
            context.insert(FaultNovel(title: "The Dispossessed", writer: writer))
        }
        context = ModelContext(try store.container(FaultWriter.self, FaultNovel.self))
        novel = try #require(try context.fetch(FetchDescriptor<FaultNovel>()).first)
        writer = try #require(novel.writer)
    }

    /// Whether the writer's properties are still unread.
    var writerIsFault: Bool { writer.persistentBackingData.unloadedProperties != nil }

    /// Renames the writers' table, as another program could, so reading a writer fails; `false` renames it back.
    func hideWriters(_ hidden: Bool = true) throws {
        try store.execute(
            hidden
                ? "ALTER TABLE \"FaultWriter\" RENAME TO \"FaultWriterAway\""
                : "ALTER TABLE \"FaultWriterAway\" RENAME TO \"FaultWriter\"")
    }

    /// Each stored writer as `name born genres`, and each stored novel's title, read by a new container.
    func stored() throws -> (writers: [String], novels: [String]) {
        let context = ModelContext(try store.container(FaultWriter.self, FaultNovel.self))
        let writers = try context.fetch(FetchDescriptor<FaultWriter>()).map {
            "\($0.name) \($0.born) \($0.genres?.joined(separator: ",") ?? "-")"
        }
        return (writers, try context.fetch(FetchDescriptor<FaultNovel>()).map(\.title))
    }
}
