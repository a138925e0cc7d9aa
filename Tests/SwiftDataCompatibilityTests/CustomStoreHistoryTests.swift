import Foundation
import SwiftData
import Testing

/// A position in `JSONStore`'s history: the store's own token type, conforming to SwiftData's `HistoryToken` as a
/// custom store's token does, so apps keep it (`Codable`) and compare transactions with it.
struct JSONHistoryToken: HistoryToken {
    var storeIdentifier: String
    var transaction: Int
    var tokenValue: Int? { transaction }
    var id: Int { transaction }
    static func < (lhs: Self, rhs: Self) -> Bool { lhs.transaction < rhs.transaction }
}

/// A save recorded by `JSONStore`, in the store's own transaction type.
struct JSONHistoryTransaction: HistoryTransaction {
    var transactionIdentifier: Int
    var author: String?
    var storeIdentifier: String
    var savedModels: Int
    var timestamp = Date()
    var changes: [HistoryChange] { [] }
    var token: JSONHistoryToken {
        JSONHistoryToken(storeIdentifier: storeIdentifier, transaction: transactionIdentifier)
    }
    var id: Int { transactionIdentifier }
}

/// The store answers history requests itself, as a `HistoryProviding` store written for iOS 18 does: it judges the
/// descriptor's predicate and limit over its own transactions.
extension JSONStore: HistoryProviding {
    func fetchHistory(_ descriptor: HistoryDescriptor<JSONHistoryTransaction>) throws -> [JSONHistoryTransaction] {
        var selected = try history.filter { try descriptor.predicate?.evaluate($0) ?? true }
        if descriptor.fetchLimit > 0 { selected = Array(selected.prefix(Int(descriptor.fetchLimit))) }
        return selected
    }

    func deleteHistory(_ descriptor: HistoryDescriptor<JSONHistoryTransaction>) throws {
        history = try history.filter { try !(descriptor.predicate?.evaluate($0) ?? true) }
    }
}

@Model final class JournaledNote {
    var text: String
    init(text: String) { self.text = text }
}

@Suite struct CustomStoreHistoryTests {
    @Test func aHistoryProvidingStoreAnswersTheContextsHistoryRequests() throws {
        let fileURL = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: fileURL) }
        let configuration = JSONStoreConfiguration(
            name: "Journal", schema: Schema([JournaledNote.self]), fileURL: fileURL)
        let container = try ModelContainer(for: JournaledNote.self, configurations: configuration)
        let importer = ModelContext(container)
        importer.author = "importer"
        importer.insert(JournaledNote(text: "one"))
        importer.insert(JournaledNote(text: "two"))
        try importer.save()
        let editor = ModelContext(container)
        editor.author = "editor"
        editor.insert(JournaledNote(text: "three"))
        try editor.save()

        let reader = ModelContext(container)
        let all = try reader.fetchHistory(HistoryDescriptor<JSONHistoryTransaction>())
        #expect(all.map(\.author) == ["importer", "editor"])
        #expect(all.map(\.savedModels) == [2, 1])
        let imports = try reader.fetchHistory(
            HistoryDescriptor<JSONHistoryTransaction>(predicate: #Predicate { $0.author == "importer" }))
        #expect(imports.count == 1)

        // The store's own token is a `HistoryToken`: kept as one, encoded, and compared in a history predicate.
        let editorToken = try #require(all.last?.token)
        let kept: [String: any HistoryToken] = [editorToken.storeIdentifier: editorToken]
        #expect(kept[editorToken.storeIdentifier] as? JSONHistoryToken == editorToken)
        let restored = try JSONDecoder().decode(JSONHistoryToken.self, from: JSONEncoder().encode(editorToken))
        #expect(restored == editorToken && restored.tokenValue == editorToken.transaction)
        let importerToken = all[0].token
        let afterImport = try reader.fetchHistory(
            HistoryDescriptor<JSONHistoryTransaction>(predicate: #Predicate { $0.token > importerToken }))
        #expect(afterImport.map(\.author) == ["editor"])

        let first = all[0].transactionIdentifier
        try reader.deleteHistory(
            HistoryDescriptor<JSONHistoryTransaction>(predicate: #Predicate { $0.transactionIdentifier <= first }))
        #expect(try reader.fetchHistory(HistoryDescriptor<JSONHistoryTransaction>()).map(\.author) == ["editor"])

        // Strata's own transaction type names what this store records instead.
        #expect(throws: SwiftDataError.invalidTransactionFetchRequest) {
            try reader.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        }
    }
}
