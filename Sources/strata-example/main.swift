import CommandLineSupport
import Foundation
import Strata

// strata-example takes no arguments: anything but --help or --version is a usage error.
let tool = CommandLineTool(name: "strata-example", usage: "usage: strata-example [--help | --version]")
_ = tool.parse { try CommandLineArguments($0, options: []) }

// A SwiftData book-list app's model, unchanged except for the import.
@Model
class Book {
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

let storeURL = FileManager.default.temporaryDirectory.appendingPathComponent("strata-example-\(getpid()).store")
defer {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: storeURL.path + suffix) }
}

do {
    let container = try ModelContainer(for: Book.self, configurations: ModelConfiguration(url: storeURL))
    let context = ModelContext(container)

    context.insert(Book(title: "The Left Hand of Darkness", author: "Ursula K. Le Guin", publisher: "Ace"))
    context.insert(Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
    context.insert(Book(title: "Kindred", author: "Octavia E. Butler", publisher: "Doubleday"))
    try context.save()

    let byTitle = FetchDescriptor<Book>(sortBy: [SortDescriptor(\.title)])
    print("Books sorted by title:")
    for book in try context.fetch(byTitle) {
        print("  \(book.title) — \(book.author) (\(book.publisher))")
    }

    // Update by assignment, as in SwiftData.
    let dune = try context.fetch(FetchDescriptor<Book>(predicate: #Predicate { $0.title == "Dune" })).first
    dune?.summary = "Spice, sand and politics."
    try context.save()

    // Delete by index, as a SwiftUI list's onDelete does.
    let books = try context.fetch(byTitle)
    context.delete(books[2])
    try context.save()

    // Reopen the file: the data is there.
    let reopened = ModelContext(try ModelContainer(for: Book.self, configurations: ModelConfiguration(url: storeURL)))
    let remaining = try reopened.fetch(byTitle)
    print("After reopening \(storeURL.lastPathComponent): \(remaining.count) books")
    for book in remaining {
        print("  \(book.title)\(book.summary.isEmpty ? "" : ": \(book.summary)")")
    }
} catch {
    print("error: \(error)")
    exit(1)
}
