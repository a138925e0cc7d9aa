import Foundation
import Strata
import StrataPostgres
import StrataSync
import StrataTestSupport
import Testing

@Model final class SyncArticle {
    @Attribute(.unique, .preserveValueOnDeletion) var id: UUID
    var title: String
    @Relationship(inverse: \SyncTag.articles) var tags: [SyncTag] = []

    init(title: String) {
        id = UUID()
        self.title = title
    }
}

@Model final class SyncTag {
    @Attribute(.unique, .preserveValueOnDeletion) var id: UUID
    var name: String
    var articles: [SyncArticle] = []

    init(name: String) {
        id = UUID()
        self.name = name
    }
}

/// A to-many without an inverse: its own join table, owned by the playlist alone.
@Model final class SyncPlaylist {
    @Attribute(.unique, .preserveValueOnDeletion) var id: UUID
    var name: String
    @Relationship(deleteRule: .nullify) var songs: [SyncSong] = []

    init(name: String) {
        id = UUID()
        self.name = name
    }
}

@Model final class SyncSong {
    @Attribute(.unique, .preserveValueOnDeletion) var id: UUID
    var title: String

    init(title: String) {
        id = UUID()
        self.title = title
    }
}

@Suite(
    "StrataSync: many-to-many and one-sided to-many relationships travel as sets of links",
    .needsPostgreSQL)
struct SyncLinkTests {
    private let tagging = Schema([SyncArticle.self, SyncTag.self])
    private let music = Schema([SyncPlaylist.self, SyncSong.self])

    /// Every article as `title[tags]` and every tag as `name[articles]`, sorted: both sides of the join table.
    private func tagging(_ container: ModelContainer) throws -> [String] {
        let context = ModelContext(container)
        let articles = try context.fetch(FetchDescriptor<SyncArticle>()).map {
            "\($0.title)[\($0.tags.map(\.name).sorted().joined(separator: ","))]"
        }
        let tags = try context.fetch(FetchDescriptor<SyncTag>()).map {
            "#\($0.name)[\($0.articles.map(\.title).sorted().joined(separator: ","))]"
        }
        return (articles + tags).sorted()
    }

    private func playlists(_ container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<SyncPlaylist>()).map {
            "\($0.name)[\($0.songs.map(\.title).sorted().joined(separator: ","))]"
        }.sorted()
    }

    private struct Tagging {
        let phone: ModelContainer
        let laptop: ModelContainer
        let phoneSync: SyncEngine
        let laptopSync: SyncEngine
    }

    /// A phone and a laptop sharing one article tagged `tags`, and the tags `spare` on no article.
    private func twoDevices(_ scenario: SyncScenario, tags: [String], spare: [String]) async throws -> Tagging {
        let phone = try scenario.device("phone", tagging)
        let laptop = try scenario.device("laptop", tagging)
        let devices = Tagging(
            phone: phone, laptop: laptop, phoneSync: try scenario.engine(phone),
            laptopSync: try scenario.engine(laptop))
        let context = ModelContext(phone)
        let article = SyncArticle(title: "Swift")
        context.insert(article)
        for name in tags {
            let tag = SyncTag(name: name)
            context.insert(tag)
            article.tags.append(tag)
        }
        for name in spare { context.insert(SyncTag(name: name)) }
        try context.save()
        try await devices.phoneSync.sendChanges()
        try await devices.laptopSync.fetchChanges()
        return devices
    }

    /// Runs `change` on the only article of `container`, with the container's tags by name, and saves.
    private func changeArticle(
        in container: ModelContainer, _ change: (SyncArticle, [String: SyncTag]) -> Void
    ) throws {
        let context = ModelContext(container)
        let article = try #require(try context.fetch(FetchDescriptor<SyncArticle>()).first)
        let tags = Dictionary(
            uniqueKeysWithValues: try context.fetch(FetchDescriptor<SyncTag>()).map { ($0.name, $0) })
        change(article, tags)
        try context.save()
    }

    @Test func twoDevicesAddingToOneSetOfflineBothKeepTheirs() async throws {
        let scenario = try SyncScenario()
        let devices = try await twoDevices(scenario, tags: ["x"], spare: ["y", "z"])
        #expect(try tagging(devices.laptop) == ["#x[Swift]", "#y[]", "#z[]", "Swift[x]"])

        try changeArticle(in: devices.phone) { article, tags in article.tags.append(tags["y"]!) }
        try changeArticle(in: devices.laptop) { article, tags in article.tags.append(tags["z"]!) }
        try await devices.phoneSync.sendChanges()
        try await devices.laptopSync.sendChanges()
        try await devices.phoneSync.fetchChanges()
        try await devices.laptopSync.fetchChanges()

        let merged = ["#x[Swift]", "#y[Swift]", "#z[Swift]", "Swift[x,y,z]"]
        #expect(try tagging(devices.phone) == merged)
        #expect(try tagging(devices.laptop) == merged)
        #expect(try tagging(scenario.server(tagging)) == merged)
    }

    @Test func aRemovalTravelsWithoutUndoingAnotherDevicesAddition() async throws {
        let scenario = try SyncScenario()
        let devices = try await twoDevices(scenario, tags: ["x", "y"], spare: ["z"])

        try changeArticle(in: devices.phone) { article, _ in article.tags.removeAll { $0.name == "x" } }
        try changeArticle(in: devices.laptop) { article, tags in article.tags.append(tags["z"]!) }
        try await devices.phoneSync.sendChanges()
        // The laptop still holds x: sending its whole set would put x back.
        try await devices.laptopSync.sendChanges()
        try await devices.phoneSync.fetchChanges()
        try await devices.laptopSync.fetchChanges()

        let merged = ["#x[]", "#y[Swift]", "#z[Swift]", "Swift[y,z]"]
        #expect(try tagging(devices.phone) == merged)
        #expect(try tagging(devices.laptop) == merged)
        #expect(try tagging(scenario.server(tagging)) == merged)
    }

    @Test func linksNotYetSentSurviveAFetchAndAreSentAfter() async throws {
        let scenario = try SyncScenario()
        let devices = try await twoDevices(scenario, tags: ["x", "y"], spare: ["z", "w"])

        // The laptop adds z and removes y, and fetches the phone's w before sending.
        try changeArticle(in: devices.laptop) { article, tags in
            article.tags.append(tags["z"]!)
            article.tags.removeAll { $0.name == "y" }
        }
        try changeArticle(in: devices.phone) { article, tags in article.tags.append(tags["w"]!) }
        try await devices.phoneSync.sendChanges()
        try await devices.laptopSync.fetchChanges()
        #expect(try tagging(devices.laptop) == ["#w[Swift]", "#x[Swift]", "#y[]", "#z[Swift]", "Swift[w,x,z]"])

        try await devices.laptopSync.sendChanges()
        try await devices.phoneSync.fetchChanges()
        let merged = ["#w[Swift]", "#x[Swift]", "#y[]", "#z[Swift]", "Swift[w,x,z]"]
        #expect(try tagging(devices.phone) == merged)
        #expect(try tagging(scenario.server(tagging)) == merged)
    }

    @Test func aLinkMadeFromTheOtherSideTravels() async throws {
        let scenario = try SyncScenario()
        let devices = try await twoDevices(scenario, tags: ["x"], spare: ["y"])

        let context = ModelContext(devices.laptop)
        let article = try #require(try context.fetch(FetchDescriptor<SyncArticle>()).first)
        let tags = try context.fetch(FetchDescriptor<SyncTag>())
        tags.first { $0.name == "y" }?.articles.append(article)
        tags.first { $0.name == "x" }?.articles.removeAll()
        try context.save()
        try await devices.laptopSync.sendChanges()
        try await devices.phoneSync.fetchChanges()

        let moved = ["#x[]", "#y[Swift]", "Swift[y]"]
        #expect(try tagging(devices.phone) == moved)
        #expect(try tagging(scenario.server(tagging)) == moved)
    }

    @Test func aOneSidedToManyMergesAdditionsAndRemovals() async throws {
        let scenario = try SyncScenario()
        let phone = try scenario.device("phone", music)
        let laptop = try scenario.device("laptop", music)
        let phoneSync = try scenario.engine(phone)
        let laptopSync = try scenario.engine(laptop)
        let context = ModelContext(phone)
        let playlist = SyncPlaylist(name: "Road")
        context.insert(playlist)
        for title in ["a", "b", "c"] {
            let song = SyncSong(title: title)
            context.insert(song)
            if title != "c" { playlist.songs.append(song) }
        }
        try context.save()
        try await phoneSync.sendChanges()
        try await laptopSync.fetchChanges()
        #expect(try playlists(laptop) == ["Road[a,b]"])

        playlist.songs.removeAll { $0.title == "a" }
        try context.save()
        let laptopContext = ModelContext(laptop)
        let laptopPlaylist = try #require(try laptopContext.fetch(FetchDescriptor<SyncPlaylist>()).first)
        let c = try #require(try laptopContext.fetch(FetchDescriptor<SyncSong>()).first { $0.title == "c" })
        laptopPlaylist.songs.append(c)
        try laptopContext.save()
        try await laptopSync.sendChanges()
        try await phoneSync.sendChanges()
        try await phoneSync.fetchChanges()
        try await laptopSync.fetchChanges()

        #expect(try playlists(phone) == ["Road[b,c]"])
        #expect(try playlists(laptop) == ["Road[b,c]"])
        #expect(try playlists(scenario.server(music)) == ["Road[b,c]"])
    }

    @Test func aDeviceOnPostgreSQLKeepsItsBaseOfLinksThere() async throws {
        let scenario = try SyncScenario()
        let url = try #require(PostgresTestServer.url)
        let edge = try ModelContainer(
            for: tagging, migrationPlan: nil,
            configurations: [
                PostgresConfiguration(url: url, databaseSchema: StoreKind.newDatabaseSchema(prefix: "strata_edge_"))
            ])
        let edgeSync = try scenario.engine(edge)
        let phone = try scenario.device("phone", tagging)
        let phoneSync = try scenario.engine(phone)
        let context = ModelContext(edge)
        let article = SyncArticle(title: "Swift")
        let tags = ["x", "y"].map { SyncTag(name: $0) }
        context.insert(article)
        for tag in tags { context.insert(tag) }
        article.tags = [tags[0]]
        try context.save()
        try await edgeSync.sendChanges()
        try await phoneSync.fetchChanges()
        try changeArticle(in: phone) { article, tags in article.tags.append(tags["y"]!) }
        article.tags.removeAll()
        try context.save()
        try await phoneSync.sendChanges()
        try await edgeSync.sendChanges()
        try await edgeSync.fetchChanges()
        try await phoneSync.fetchChanges()

        let merged = ["#x[]", "#y[Swift]", "Swift[y]"]
        #expect(try tagging(edge) == merged)
        #expect(try tagging(phone) == merged)
        #expect(try tagging(scenario.server(tagging)) == merged)
    }

    @Test func aPushOfLinksSentAgainAfterALostAcknowledgementChangesNothing() async throws {
        let scenario = try SyncScenario()
        let phone = try scenario.device("phone", tagging)
        let phoneSync = try scenario.engine(phone)
        let before = await phoneSync.state.serialization
        let context = ModelContext(phone)
        let article = SyncArticle(title: "Swift")
        let tag = SyncTag(name: "x")
        context.insert(article)
        context.insert(tag)
        article.tags = [tag]
        try context.save()
        try await phoneSync.sendChanges()

        // The state kept before the send: the device sends the same history again.
        let replay = try scenario.engine(phone, state: before)
        try await replay.sendChanges()
        let server = try scenario.server(tagging)
        #expect(try tagging(server) == ["#x[Swift]", "Swift[x]"])
        #expect(try ModelContext(server).fetchCount(FetchDescriptor<SyncTag>()) == 1)
    }
}
