import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("A fault that can't be fulfilled is reported, and loses nothing stored")
struct FaultFailureTests {
    @Test(
        "A failed read leaves empty values and faultError; a save refuses the model; the next read recovers",
        arguments: StoreKind.all)
    func failedReadIsReportedAndRetried(_ kind: StoreKind) throws {
        let scene = try FaultScene(kind)
        #expect(scene.writerIsFault)
        try scene.hideWriters()

        #expect(scene.writer.name == "")
        #expect(scene.writer.born == 0)
        #expect(scene.writer.genres == nil)
        let error = try #require(scene.context.faultError)
        guard case .storeFailure(let operation, _) = error else {
            Issue.record("expected a store failure, got \(error)")
            return
        }
        #expect(operation.contains("FaultWriter/"), "\(error)")
        #expect(!scene.writer.isDeleted && scene.writer.modelContext === scene.context)
        #expect(scene.writerIsFault, "the properties stay unread, so the next use reads them again")

        // An assignment meanwhile is kept; a save can't write a model it could not read, and says why.
        scene.writer.born = 1930
        #expect(scene.context.hasChanges)
        #expect {
            try scene.context.save()
        } throws: { thrown in
            guard case .storeFailure(let operation, _)? = StrataError(thrown) else { return false }
            return operation.contains("FaultWriter/")
        }

        try scene.hideWriters(false)
        #expect(scene.writer.name == "Le Guin")
        #expect(scene.writer.genres == ["science fiction", "fantasy"], "no empty value kept from the failed read")
        #expect(scene.writer.born == 1930, "the assignment outlives the read that filled in the rest")
        try scene.context.save()
        #expect(!scene.context.hasChanges)
        let stored = try scene.stored()
        #expect(stored.writers == ["Le Guin 1930 science fiction,fantasy"])
        #expect(stored.novels == ["The Dispossessed"])
    }

    @Test("A fault read only after the store came back holds the stored values", arguments: StoreKind.all)
    func readAfterRecoveryHoldsTheRow(_ kind: StoreKind) throws {
        let scene = try FaultScene(kind)
        try scene.hideWriters()
        #expect(scene.writer.name == "")
        try scene.hideWriters(false)
        #expect(scene.writer.name == "Le Guin" && scene.writer.born == 1929)
        #expect(!scene.writerIsFault && !scene.context.hasChanges)
        // Nothing to save, and a save writes nothing over the row.
        try scene.context.save()
        #expect(try scene.stored().writers == ["Le Guin 1929 science fiction,fantasy"])
    }

    @Test("A fault whose row another process deleted reads as deleted, with faultError", arguments: StoreKind.all)
    func goneRowReadsAsDeleted(_ kind: StoreKind) throws {
        let scene = try FaultScene(kind)
        try scene.store.execute("DELETE FROM \"FaultWriter\"")

        #expect(scene.writer.name == "")
        #expect(scene.writer.isDeleted)
        #expect(scene.writer.modelContext == nil)
        let error = try #require(scene.context.faultError)
        #expect(error.description.contains("no longer in the store"), "\(error)")
        #expect(scene.novel.title == "The Dispossessed")

        // The stand-in is never written: assigning to it leaves the context without changes.
        scene.writer.born = 1930
        #expect(!scene.context.hasChanges)
        try scene.context.save()
        let stored = try scene.stored()
        #expect(stored.writers.isEmpty)
        #expect(stored.novels == ["The Dispossessed"])
    }
}
