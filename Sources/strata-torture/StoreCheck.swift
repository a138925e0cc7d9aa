import Foundation
import Strata

/// What a store left by a killed writer holds, and whether it is a state some prefix of the saves produces.
struct StoreCheck {
    /// The saves the store holds (its highest `SaveRecord`), or nil when it couldn't be read.
    var saves: Int?
    /// Why the store failed the check; empty when it passed.
    var failures: [String] = []

    /// Opens the store at `path` with Strata (the open itself is part of the check), runs
    /// `PRAGMA integrity_check`, reads every row and compares them with the in-memory state after the same number
    /// of saves. `logged` are the saves the writer reported committed: each must be present in full.
    @MainActor
    static func run(path: String, seed: UInt64, logged: [(number: Int, digest: UInt64)]) -> StoreCheck {
        var check = StoreCheck()
        let world: World
        do {
            let container = try ModelContainer(
                for: Schema(workloadModels), configurations: ModelConfiguration(url: URL(fileURLWithPath: path)))
            world = try read(ModelContext(container))
        } catch {
            check.failures.append("the store did not open or read: \(error)")
            return check
        }
        do {
            let connection = try SQLiteConnection(location: .file(path), readOnly: true)
            let result = try connection.query("PRAGMA integrity_check", [])
            if result != [[.text("ok")]] { check.failures.append("integrity_check: \(result.prefix(5))") }
        } catch {
            check.failures.append("integrity_check failed to run: \(error)")
        }
        let saves = world.records.keys.max() ?? 0
        check.saves = saves
        let lastLogged = logged.last?.number ?? 0
        if saves < lastLogged {
            check.failures.append("saves lost: the log reports \(lastLogged) committed, the store holds \(saves)")
        }
        // A save can commit and the writer die before logging it; more than one is impossible.
        if saves > lastLogged + 1 {
            check.failures.append("the store holds \(saves) saves, the log only \(lastLogged)")
        }
        let replay = World.replay(seed: seed, count: saves, digestOf: logged.last?.number)
        if !world.hasSameRows(as: replay.world) {
            check.failures.append(
                "the store is not the state after \(saves) saves: " + describeDifference(world, replay.world))
        }
        // The writer's own view of its last logged save agrees with the replay (the harness checks itself).
        if let last = logged.last, let digest = replay.digest, digest != last.digest {
            check.failures.append("logged save \(last.number) has a digest the replay doesn't produce")
        }
        return check
    }

    /// The rows of a store as a `World` (slots and values; read through Strata's relationships).
    @MainActor
    static func read(_ context: ModelContext) throws -> World {
        var world = World()
        for group in try context.fetch(FetchDescriptor<EntryGroup>(sortBy: [SortDescriptor(\.slot)])) {
            world.apply(.insertGroup(slot: group.slot, name: group.name))
        }
        for tag in try context.fetch(FetchDescriptor<EntryTag>(sortBy: [SortDescriptor(\.slot)])) {
            world.apply(.insertTag(slot: tag.slot, name: tag.name))
        }
        for entry in try context.fetch(FetchDescriptor<Entry>(sortBy: [SortDescriptor(\.slot)])) {
            let state = World.EntryState(
                batch: entry.batch, payload: entry.payload, amount: entry.amount,
                group: entry.group?.slot, tags: entry.tags.map(\.slot).sorted())
            world.apply(.insertEntry(slot: entry.slot, state))
        }
        for record in try context.fetch(FetchDescriptor<SaveRecord>()) {
            world.apply(.record(number: record.number, entryCount: record.entryCount))
        }
        return world
    }

    /// The first difference between two states, for the failure message.
    private static func describeDifference(_ found: World, _ expected: World) -> String {
        for slot in Set(found.entries.keys).union(expected.entries.keys).sorted()
        where found.entries[slot] != expected.entries[slot] {
            let show = { (state: World.EntryState?) in
                state.map {
                    "batch \($0.batch) amount \($0.amount) group \($0.group.map(String.init) ?? "nil") tags \($0.tags) payload \($0.payload.prefix(12))…"
                } ?? "absent"
            }
            return "entry \(slot): found \(show(found.entries[slot])), expected \(show(expected.entries[slot]))"
        }
        if found.groups != expected.groups {
            return "groups differ: \(found.groups.count) found, \(expected.groups.count) expected"
        }
        if found.tags != expected.tags { return "tags differ" }
        return "records differ: \(found.records.count) found, \(expected.records.count) expected"
    }
}
