import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// The shape of `strata-torture fuzz-format`'s `Entry` (same property names), so its corpus replays here.
@Model
final class CorpusEntry {
    var slot: Int
    var batch: Int
    var payload: String
    var amount: Int
    var group: CorpusGroup?
    @Relationship(inverse: \CorpusTag.entries) var tags: [CorpusTag] = []

    init(slot: Int) {
        self.slot = slot
        batch = slot % 3
        payload = "x\(slot)"
        amount = slot * 7
    }
}

@Model
final class CorpusGroup {
    var slot: Int
    var name: String
    @Relationship(inverse: \CorpusEntry.group) var entries: [CorpusEntry] = []

    init(slot: Int, name: String) {
        self.slot = slot
        self.name = name
    }
}

@Model
final class CorpusTag {
    var slot: Int
    var name: String
    var entries: [CorpusEntry] = []

    init(slot: Int, name: String) {
        self.slot = slot
        self.name = name
    }
}

/// Replays the format-predicate fuzzer's corpus (`Reliability/Corpus/*.txt`): every input is parsed, translated and
/// fetched within a second, with bounded error messages and SQL that SQLite accepts.
@Suite("Format fuzz corpus")
struct FormatCorpusTests {
    static let corpusDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Corpus")
    /// The arguments the fuzzer passes, as many as the input has `%` specifiers.
    static let arguments: [any Sendable] = ["payload", "x", 3, [1, 2, 3], 2.5, "amount"]

    @Test("Every corpus input is refused or runs, within a second, with a bounded error", arguments: StoreKind.all)
    func replayCorpus(_ kind: StoreKind) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpusDirectory.path).filter {
            $0.hasSuffix(".txt")
        }.sorted()
        #expect(names.count >= 10, "the corpus is missing")
        let context = ModelContext(try freshContainer(kind, CorpusEntry.self, CorpusGroup.self, CorpusTag.self))
        let group = CorpusGroup(slot: 1, name: "a"), tag = CorpusTag(slot: 2, name: "b")
        for slot in 3..<8 {
            let entry = CorpusEntry(slot: slot)
            context.insert(entry)
            entry.group = slot % 2 == 0 ? group : nil
            entry.tags = slot % 3 == 0 ? [tag] : []
        }
        try context.save()
        for name in names {
            let input = try String(contentsOf: Self.corpusDirectory.appendingPathComponent(name), encoding: .utf8)
            let started = Date()
            let specifiers =
                input.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "%") ? 1 : 0) } - 2
                * input.components(separatedBy: "%%").count + 2
            let arguments = (0..<max(0, specifiers)).map { Self.arguments[$0 % Self.arguments.count] }
            let predicate = FormatPredicate(format: input, argumentArray: arguments)
            do {
                _ = try context.fetchCount(FetchDescriptor<CorpusEntry>(predicate: predicate))
            } catch {
                let text = "\(error)"
                #expect(text.count < 4_000, "\(name): an error of \(text.count) characters")
                // SQLite's and PostgreSQL's words for SQL they can't run.
                for sign in [
                    "syntax error", "no such column", "no such function", "parser stack overflow", "does not exist",
                    "stack depth limit", "SQLSTATE 42",
                ] {
                    #expect(!text.contains(sign), "\(name): the store rejected the generated SQL: \(text.prefix(400))")
                }
            }
            #expect(Date().timeIntervalSince(started) < 1, "\(name) took over a second")
        }
    }
}
