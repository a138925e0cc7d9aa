import Foundation
import SwiftData
import Testing

@Model final class ActorNote {
    var text: String = ""
    init(text: String) { self.text = text }
}

/// A data service declared as SwiftData apps declare theirs, `public`, so other modules can make it.
@ModelActor public actor ActorNoteService {
    func add(_ text: String) throws -> Int {
        modelContext.insert(ActorNote(text: text))
        try modelContext.save()
        return try modelContext.fetchCount(FetchDescriptor<ActorNote>())
    }
}

@ModelActor package actor PackageNoteService {
    func count() throws -> Int { try modelContext.fetchCount(FetchDescriptor<ActorNote>()) }
}

@Suite struct ModelActorAccessTests {
    @Test(arguments: StoreKind.all) func publicAndPackageModelActorsWork(_ kind: StoreKind) async throws {
        let container = try freshContainer(kind, ActorNote.self)
        let service = ActorNoteService(modelContainer: container)
        #expect(try await service.add("first") == 1)
        #expect(try await PackageNoteService(modelContainer: container).count() == 1)
        #expect(service.modelContainer === container)
    }
}
