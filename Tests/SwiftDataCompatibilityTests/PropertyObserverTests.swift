import Foundation
import SwiftData
import Testing

// Observers as apps write them: one keeps a derived attribute in step, one follows a relationship.
@Model final class ObservedEpisode {
    var title: String = "" {
        willSet { log.append("title will \(title) → \(newValue)") }
        didSet { log.append("title did \(oldValue) → \(title)") }
    }
    var video: ObservedVideo? {
        didSet(previous) {
            published = video?.published
            log.append("video \(previous?.name ?? "nil") → \(video?.name ?? "nil")")
        }
    }
    var published: Date?
    var plays = 0 {
        didSet {
            guard plays > 100 else { return }
            log.append("popular")
        }
    }
    @Transient var log: [String] = []

    init(title: String) { self.title = title }
}

@Model final class ObservedVideo {
    var name: String
    var published: Date

    init(name: String, published: Date) {
        self.name = name
        self.published = published
    }
}

@Suite struct PropertyObserverTests {
    @Test func observersRunOnEveryAssignmentWithSwiftsValues() {
        let episode = ObservedEpisode(title: "Pilot")
        // The initializer's assignment comes after every property has its default value, so it is observed too.
        #expect(episode.log == ["title will  → Pilot", "title did  → Pilot"])
        episode.log = []
        episode.title = "Intro"
        let day = Date(timeIntervalSinceReferenceDate: 700_000_000)
        episode.video = ObservedVideo(name: "cut", published: day)
        episode.plays = 5
        episode.plays = 101
        #expect(episode.log == ["title will Pilot → Intro", "title did Pilot → Intro", "video nil → cut", "popular"])
        #expect(episode.published == day)
    }

    @Test(arguments: StoreKind.all) func observersNeverRunWhenModelsComeFromTheStore(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, ObservedEpisode.self, ObservedVideo.self)
        let context = ModelContext(container)
        let episode = ObservedEpisode(title: "Pilot")
        episode.log = []
        context.insert(episode)
        episode.video = ObservedVideo(name: "cut", published: .now)
        try context.save()

        let fetched = try #require(try ModelContext(container).fetch(FetchDescriptor<ObservedEpisode>()).first)
        #expect(fetched.title == "Pilot")
        #expect(fetched.video?.name == "cut")
        #expect(fetched.log.isEmpty)

        // Another context's save, then a fetch that refreshes the registered model, and a rollback: no observers.
        let writer = ModelContext(container)
        try #require(try writer.fetch(FetchDescriptor<ObservedEpisode>()).first).plays = 500
        try writer.save()
        episode.log = []
        let refetched = try #require(try context.fetch(FetchDescriptor<ObservedEpisode>()).first)
        #expect(refetched === episode)
        episode.title = "Changed"
        context.rollback()
        #expect(episode.title == "Pilot")
        #expect(episode.log == ["title will Pilot → Changed", "title did Pilot → Changed"])
    }
}
