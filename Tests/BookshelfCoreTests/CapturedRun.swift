import Foundation

@testable import BookshelfCore

/// One run of `bookshelf` through `Bookshelf.main`, with what it printed on each stream.
struct CapturedRun {
    /// The exit status.
    let status: Int32
    /// What went to standard output, one string per print.
    let output: String
    /// The notes and errors for standard error, without the `bookshelf: ` prefix.
    let notes: [String]

    /// Runs `bookshelf` with `arguments` (without the program name).
    @MainActor
    static func run(_ arguments: [String]) async -> CapturedRun {
        var output: [String] = []
        var notes: [String] = []
        let status = await Bookshelf.main(arguments, output: { output.append($0) }, note: { notes.append($0) })
        return CapturedRun(status: status, output: output.joined(separator: "\n"), notes: notes)
    }
}
