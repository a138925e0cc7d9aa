import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("ModelConfiguration's CloudKit arguments")
struct ModelConfigurationCloudKitTests {
    @Test("Only a named CloudKit database is reported, and at most once per process")
    func cloudKitNoticeIsWrittenOnce() {
        #expect(!ModelConfiguration.noteCloudKitUnavailable(.none))
        #expect(!ModelConfiguration.noteCloudKitUnavailable(.automatic))
        // Another test may have triggered the notice already; either way, a second request writes nothing.
        _ = ModelConfiguration.noteCloudKitUnavailable(.private("iCloud.com.example"))
        #expect(!ModelConfiguration.noteCloudKitUnavailable(.private("iCloud.com.example")))
    }

    @Test("Configurations differing only in their CloudKit database are different")
    func cloudKitDatabaseTakesPartInEquality() {
        let local = ModelConfiguration(isStoredInMemoryOnly: true)
        let synced = ModelConfiguration(isStoredInMemoryOnly: true, cloudKitDatabase: .private("iCloud.com.example"))
        #expect(local != synced)
        #expect(local == ModelConfiguration(isStoredInMemoryOnly: true))
    }
}
