import Foundation
import SwiftData

@Model
final class Trip {
    @Attribute(.unique) var name: String
    var destination: String
    var startDate: Date

    init(name: String, destination: String, startDate: Date) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
    }
}

/// Saves a model to a store file, then fetches it through a second container, as an app started twice would.
@main
struct Consumer {
    @MainActor
    static func main() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-consumer-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = ModelConfiguration(url: directory.appendingPathComponent("trips.store"))

        let writer = try ModelContainer(for: Trip.self, configurations: configuration)
        writer.mainContext.insert(Trip(name: "Iceland", destination: "Reykjavík", startDate: .now))
        try writer.mainContext.save()

        let reader = try ModelContainer(for: Trip.self, configurations: configuration)
        let trips = try reader.mainContext.fetch(
            FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Reykjavík" }))
        guard trips.count == 1, trips.first?.name == "Iceland" else {
            FileHandle.standardError.write(
                Data("consumer: expected the saved trip back, fetched \(trips.count)\n".utf8))
            exit(1)
        }
        print("consumer: saved and fetched \(trips.count) trip through import SwiftData")
    }
}
