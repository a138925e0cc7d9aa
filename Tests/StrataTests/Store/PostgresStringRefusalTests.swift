import Foundation
import Strata
import Testing

@Suite("PostgresStore: string semantics it can't match yet are refused, never answered differently")
struct PostgresStringRefusalTests {
    private func context() throws -> ModelContext? {
        guard StoreKind.all.contains(.postgres) else { return nil }
        return try PredicateFixture.context(.postgres, with: [
            PredicateBook(serial: 1, title: "Café", summary: "Zoë"),
            PredicateBook(serial: 2, title: "Dune", summary: "Frank"),
        ])
    }

    @Test("Character counts, [c] contains and localizedStandardContains over non-ASCII text throw unsupportedPredicate")
    func nonASCIITextIsRefused() throws {
        guard let context = try context() else { return }
        let refused: [Predicate<PredicateBook>] = [
            #Predicate { $0.title.count == 4 },
            #Predicate { ($0.summary ?? "").count == 3 },
            #Predicate { $0.title.localizedStandardContains("caf") },
            #Predicate { $0.title.contains("af") },
        ]
        for predicate in refused {
            #expect {
                try context.fetch(FetchDescriptor(predicate: predicate))
            } throws: { error in
                guard case StrataError.unsupportedPredicate = error else { return false }
                return true
            }
        }
    }

    @Test("The same predicates over ASCII text give SQLite's answers (the refusal is by the rows a query reads)")
    func asciiTextMatches() throws {
        guard StoreKind.all.contains(.postgres) else { return }
        let context = try PredicateFixture.context(.postgres, with: [
            PredicateBook(serial: 1, title: "Cafe"), PredicateBook(serial: 2, title: "Dune"),
        ])
        let dune = #Predicate<PredicateBook> { $0.title.count == 4 && $0.title.localizedStandardContains("UN") && $0.title.contains("un") }
        #expect(try context.fetch(FetchDescriptor(predicate: dune)).map(\.serial) == [2])
    }
}
