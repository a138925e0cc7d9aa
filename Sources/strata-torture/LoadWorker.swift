import Foundation
import Strata
import StrataPostgres
import Synchronization

/// One event of the load run: written by a save, read by predicates, shown by every process's observer.
@Model
final class LoadEvent {
    #Index<LoadEvent>([\.category, \.amount])
    var writer: Int
    var category: String
    var amount: Int
    /// When the save that wrote it began (seconds since 1970, shared by the processes of one machine).
    var created: Double

    init(writer: Int, category: String, amount: Int, created: Double) {
        self.writer = writer
        self.category = category
        self.amount = amount
        self.created = created
    }
}

/// A process's counter, which each of its saves increments by read-modify-write (its contexts contend for it):
/// the run's "nothing lost" check.
@Model
final class LoadCounter {
    @Attribute(.unique) var name: String
    var value = 0
    init(name: String) { self.name = name }
}

/// What one worker measured, written as JSON for the parent to combine.
struct LoadTally: Codable, Sendable {
    var reads = 0
    var saves = 0
    var increments = 0
    var conflicts = 0
    var saveMilliseconds: [Double] = []
    var readMilliseconds: [Double] = []
    /// From a save's start in another process to this process's observer showing its event.
    var observedMilliseconds: [Double] = []
    var errors: [String: Int] = [:]

    mutating func merge(_ other: LoadTally) {
        reads += other.reads
        saves += other.saves
        increments += other.increments
        conflicts += other.conflicts
        saveMilliseconds += other.saveMilliseconds
        readMilliseconds += other.readMilliseconds
        observedMilliseconds += other.observedMilliseconds
        errors.merge(other.errors, uniquingKeysWith: +)
    }

    /// Counts `error` under its kind: the `StrataError` case, or the type of anything else.
    mutating func record(_ error: any Error) {
        let kind =
            (error as? StrataError).map { "\($0)".prefix { $0 != "(" && $0 != ":" } }.map(String.init)
            ?? "\(type(of: error))"
        errors[kind, default: 0] += 1
    }
}

/// The categories events are written in and read by.
let loadCategories = ["inbox", "work", "home", "errands", "someday"]

/// One context of a worker: a model actor reading through `#Predicate` and saving a few models in a realistic mix
/// (four reads to one save), on its own executor.
@ModelActor
actor LoadActor {
    func run(writer: Int, until deadline: Date, seed: UInt64) -> LoadTally {
        var random = SplitMix(seed: seed)
        var tally = LoadTally()
        while Date() < deadline {
            if random.next() % 5 == 0 {
                save(writer: writer, random: &random, tally: &tally)
            } else {
                read(random: &random, tally: &tally)
            }
        }
        return tally
    }

    private func read(random: inout SplitMix, tally: inout LoadTally) {
        let category = loadCategories[Int(random.next() % UInt64(loadCategories.count))]
        let threshold = Int(random.next() % 1000)
        var descriptor = FetchDescriptor<LoadEvent>(
            predicate: #Predicate { $0.category == category && $0.amount > threshold },
            sortBy: [SortDescriptor(\.created, order: .reverse)])
        descriptor.fetchLimit = 20
        let start = ContinuousClock.now
        do {
            _ = try ModelContext(modelContainer).fetch(descriptor)
            tally.reads += 1
            tally.readMilliseconds.append(Self.milliseconds(since: start))
        } catch {
            tally.record(error)
        }
    }

    /// Two new events and the counter's increment in one save, retried in a fresh context after a conflict.
    private func save(writer: Int, random: inout SplitMix, tally: inout LoadTally) {
        let start = ContinuousClock.now
        let created = Date().timeIntervalSince1970
        for _ in 0..<10 {
            let context = ModelContext(modelContainer)
            context.mergePolicy = .error
            do {
                let name = "worker-\(writer)"
                guard
                    let counter = try context.fetch(
                        FetchDescriptor<LoadCounter>(predicate: #Predicate { $0.name == name })
                    ).first
                else {
                    tally.errors["no counter row", default: 0] += 1
                    return
                }
                counter.value += 1
                for _ in 0..<2 {
                    let category = loadCategories[Int(random.next() % UInt64(loadCategories.count))]
                    context.insert(
                        LoadEvent(
                            writer: writer, category: category, amount: Int(random.next() % 1000), created: created))
                }
                try context.save()
                tally.saves += 1
                tally.increments += 1
                tally.saveMilliseconds.append(Self.milliseconds(since: start))
                return
            } catch StrataError.mergeConflict {
                tally.conflicts += 1
            } catch {
                tally.record(error)
                return
            }
        }
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }
}

/// `load-worker`: one app process of the load run: `contexts` model actors working until the deadline, and a
/// `ResultsObserver` of the newest events on the main actor timing how long other processes' saves take to show.
@MainActor
struct LoadWorker {
    let url: URL
    let databaseSchema: String
    let worker: Int
    let contexts: Int
    let seconds: Double
    let output: String

    func run() async throws {
        var configuration = PostgresConfiguration(
            url: url, databaseSchema: databaseSchema, maximumConnections: contexts + 1)
        configuration.maximumConnectionWait = .seconds(10)
        let container = try ModelContainer(
            for: Schema([LoadEvent.self, LoadCounter.self]), migrationPlan: nil, configurations: [configuration])
        let setup = ModelContext(container)
        setup.insert(LoadCounter(name: "worker-\(worker)"))
        try setup.save()
        var newest = FetchDescriptor<LoadEvent>(sortBy: [SortDescriptor(\.created, order: .reverse)])
        newest.fetchLimit = 50
        let observer = try ResultsObserver(fetchDescriptor: newest, modelContext: container.mainContext)
        var observed = LoadTally()
        var seen = Set(observer.results.map(\.persistentModelID))
        observer.onChange = { [worker] snapshot in
            let now = Date().timeIntervalSince1970
            for event in snapshot.results where seen.insert(event.persistentModelID).inserted && event.writer != worker
            {
                observed.observedMilliseconds.append((now - event.created) * 1000)
            }
        }
        let deadline = Date().addingTimeInterval(seconds)
        let tallies = await withTaskGroup(of: LoadTally.self) { group in
            for context in 0..<contexts {
                let actor = LoadActor(modelContainer: container)
                let seed = UInt64(worker * 1000 + context + 1)
                group.addTask { await actor.run(writer: worker, until: deadline, seed: seed) }
            }
            var total = LoadTally()
            for await tally in group { total.merge(tally) }
            return total
        }
        // The last saves of the other processes reach the observer shortly after the deadline.
        try await Task.sleep(for: .milliseconds(500))
        var total = tallies
        total.merge(observed)
        try JSONEncoder().encode(total).write(to: URL(fileURLWithPath: output))
        withExtendedLifetime(observer) {}
    }
}
