import Foundation
import Strata
import StrataTestSupport

// Model classes shared by the core behaviour suites. Each suite opens its own store, so sharing the classes
// shares no state.

/// Seed 004's book.
@Model
final class Book {
    var title: String
    var author: String
    var publisher: String
    var summary: String

    init(title: String, author: String, publisher: String, summary: String = "") {
        self.title = title
        self.author = author
        self.publisher = publisher
        self.summary = summary
    }
}

/// A model with a property of each kind the fetch suites filter and sort on.
@Model
final class Reading {
    var title: String
    var pages: Int
    var isFinished: Bool
    var startedAt: Date
    var rating: Int?

    init(title: String, pages: Int, isFinished: Bool, startedAt: Date, rating: Int? = nil) {
        self.title = title
        self.pages = pages
        self.isFinished = isFinished
        self.startedAt = startedAt
        self.rating = rating
    }
}

/// A book unique by ISBN.
@Model
final class CatalogBook {
    @Attribute(.unique) var isbn: String
    var title: String

    init(isbn: String, title: String) {
        self.isbn = isbn
        self.title = title
    }
}

/// An edition unique by title and year together.
@Model
final class Edition {
    #Unique<Edition>([\.title, \.year])
    var title: String
    var year: Int
    var printing: Int

    init(title: String, year: Int, printing: Int) {
        self.title = title
        self.year = year
        self.printing = printing
    }
}

/// A book indexed by title.
@Model
final class ShelvedBook {
    #Index<ShelvedBook>([\.title])
    var title: String

    init(title: String) {
        self.title = title
    }
}

/// A model outside every schema the suites open.
@Model
final class Stray {
    var name: String

    init(name: String) {
        self.name = name
    }
}

/// Two shapes of a model with the same class name, for schema-mismatch tests.
enum ShapeA {
    @Model
    final class Shelf {
        var name: String
        init(name: String) { self.name = name }
    }
}

enum ShapeB {
    @Model
    final class Shelf {
        var label: String
        init(label: String) { self.label = label }
    }
}

/// A raw-value enumeration stored as text.
enum Genre: String, Codable {
    case fiction, poetry
}

/// A raw-value enumeration stored as an integer.
enum Priority: Int, Codable {
    case low = 1, high = 9
}

/// A `Codable` struct stored as JSON.
struct Dimensions: Codable, Equatable {
    var width: Double
    var height: Double
    var label: String
}

/// One property of each stored type.
@Model
final class Everything {
    var flag: Bool = false
    var int: Int = 0
    var int8: Int8 = 0
    var int16: Int16 = 0
    var int32: Int32 = 0
    var int64: Int64 = 0
    var uint8: UInt8 = 0
    var uint16: UInt16 = 0
    var uint32: UInt32 = 0
    var uint64: UInt64 = 0
    var double: Double = 0
    var float: Float = 0
    var decimal: Decimal = 0
    var text: String = ""
    var date: Date = Date(timeIntervalSince1970: 0)
    var data: Data = Data()
    var uuid: UUID = UUID()
    var url: URL = URL(fileURLWithPath: "/")
    var genre: Genre = Genre.fiction
    var priority: Priority = Priority.low
    var dimensions: Dimensions = Dimensions(width: 0, height: 0, label: "")
    var tags: [String] = []
    var counts: [String: Int] = [:]
    var optionalText: String?
    var optionalInt: Int?
    var optionalDate: Date?
    var optionalUUID: UUID?
    var optionalGenre: Genre?
    var optionalDimensions: Dimensions?

    init() {}
}

/// A unique temporary store file, removed with its companion files when released.
final class TemporaryStore {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-core-\(UUID().uuidString).store")
    }

    deinit {
        for suffix in ["", "-wal", "-shm", "-journal"] + backups() {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }

    /// The suffixes (`.backup-…`) of the backups written next to the file before migrations.
    func backups() -> [String] {
        let name = url.lastPathComponent + ".backup-"
        let files = (try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? []
        return files.filter { $0.hasPrefix(name) }.map { "." + $0.dropFirst(url.lastPathComponent.count + 1) }.sorted()
    }

    /// A container over the file for `types`.
    func container(_ types: any PersistentModel.Type..., allowsSave: Bool = true) throws -> ModelContainer {
        try ModelContainer(for: Schema(types), configurations: ModelConfiguration(url: url, allowsSave: allowsSave))
    }

    /// The file's current bytes (empty when missing).
    func bytes() -> Data {
        FileManager.default.contents(atPath: url.path) ?? Data()
    }
}

/// A container that keeps its models in memory only.
func inMemoryContainer(_ types: any PersistentModel.Type...) throws -> ModelContainer {
    try ModelContainer(for: Schema(types), configurations: ModelConfiguration(isStoredInMemoryOnly: true))
}

extension StrataError {
    /// The error's case name, such as `"notAStrataStore"`, for tests that don't pin the associated values.
    var caseName: String {
        Mirror(reflecting: self).children.first?.label ?? String(describing: self)
    }
}
