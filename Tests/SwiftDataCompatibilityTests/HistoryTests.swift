import Foundation
import SwiftData
import Testing

@Model final class SharedTrip {
    @Attribute(.preserveValueOnDeletion) var name: String
    var destination: String
    init(name: String, destination: String) {
        self.name = name
        self.destination = destination
    }
}

/// An app and its widget sharing one store, the way SwiftData's history sample code processes the widget's
/// changes: fetch the widget's transactions after the stored token, look the changed trips up, keep the newest
/// token, and prune history every reader has processed.
@Suite struct HistoryTests {
    /// The widget's transactions after `token` (all of them without one).
    private func transactions(
        after token: DefaultHistoryToken?, author: String, in container: ModelContainer
    ) throws -> [DefaultHistoryTransaction] {
        var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
        if let token {
            descriptor.predicate = #Predicate { transaction in
                transaction.token > token && transaction.author == author
            }
        } else {
            descriptor.predicate = #Predicate { transaction in transaction.author == author }
        }
        return try ModelContext(container).fetchHistory(descriptor)
    }

    /// The trips the transactions inserted or updated and still exist, the names of those they deleted, and the
    /// token to continue from.
    private func changedTrips(
        in transactions: [DefaultHistoryTransaction], container: ModelContainer
    )
        -> (trips: Set<SharedTrip>, deletedNames: [String], token: DefaultHistoryToken?)
    {
        let context = ModelContext(container)
        var trips: Set<SharedTrip> = []
        var deletedNames: [String] = []
        for transaction in transactions {
            for change in transaction.changes {
                let identifier = change.changedPersistentIdentifier
                switch change {
                case .insert(_ as DefaultHistoryInsert<SharedTrip>), .update(_ as DefaultHistoryUpdate<SharedTrip>):
                    let descriptor = FetchDescriptor<SharedTrip>(
                        predicate: #Predicate { $0.persistentModelID == identifier })
                    if let trip = try? context.fetch(descriptor).first { trips.update(with: trip) }
                case .delete(let deletion as DefaultHistoryDelete<SharedTrip>):
                    trips = trips.filter { $0.persistentModelID != identifier }
                    if let name = deletion.tombstone[\.name] as? String { deletedNames.append(name) }
                default:
                    break
                }
            }
        }
        return (trips, deletedNames, transactions.last?.token)
    }

    @Test(arguments: StoreKind.all) func appProcessesTheWidgetsChangesFromItsToken(_ kind: StoreKind) throws {
        let store = CompatibilityStore(kind)
        let app = try store.container(SharedTrip.self)
        let appContext = ModelContext(app)
        appContext.insert(SharedTrip(name: "Lisbon", destination: "Portugal"))
        try appContext.save()
        var (_, _, token) = changedTrips(in: try transactions(after: nil, author: "widget", in: app), container: app)
        #expect(token == nil)

        let widgetContainer = try store.container(SharedTrip.self)
        let widget = ModelContext(widgetContainer)
        widget.author = "widget"
        let kyoto = SharedTrip(name: "Kyoto", destination: "Japan")
        widget.insert(kyoto)
        try widget.save()
        var changes = changedTrips(in: try transactions(after: token, author: "widget", in: app), container: app)
        #expect(changes.trips.map(\.name) == ["Kyoto"])
        token = changes.token

        kyoto.destination = "Kansai"
        try widget.save()
        widget.delete(kyoto)
        try widget.save()
        changes = changedTrips(in: try transactions(after: token, author: "widget", in: app), container: app)
        #expect(changes.trips.isEmpty)
        #expect(changes.deletedNames == ["Kyoto"])
        token = changes.token

        // Every reader is past `token`: the history up to it can go. Reading on from it still works.
        if let processed = token {
            var old = HistoryDescriptor<DefaultHistoryTransaction>()
            old.predicate = #Predicate { $0.token <= processed }
            try appContext.deleteHistory(old)
        }
        #expect(try transactions(after: token, author: "widget", in: app).isEmpty)
        #expect(try ModelContext(app).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).isEmpty)
    }
}
