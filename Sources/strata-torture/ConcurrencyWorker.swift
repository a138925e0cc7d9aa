import Foundation
import Strata

/// What one context of a concurrency worker did.
struct Tally: Sendable {
    var increments = 0
    var conflicts = 0
    /// Errors other than a merge conflict (a `SQLITE_BUSY` reaching the caller would be one).
    var errors: [String] = []

    static func + (lhs: Tally, rhs: Tally) -> Tally {
        Tally(
            increments: lhs.increments + rhs.increments, conflicts: lhs.conflicts + rhs.conflicts,
            errors: lhs.errors + rhs.errors)
    }
}

/// One read-modify-write increment under the `.error` merge policy, in a fresh context of `container` (the retry
/// Strata documents: a conflict leaves the stale context behind).
private func increment(_ container: ModelContainer, tally: inout Tally) {
    let context = ModelContext(container)
    context.mergePolicy = .error
    do {
        guard let counter = try context.fetch(FetchDescriptor<Counter>()).first else {
            tally.errors.append("no counter row")
            return
        }
        counter.value += 1
        try context.save()
        tally.increments += 1
    } catch StrataError.mergeConflict {
        tally.conflicts += 1
    } catch {
        if tally.errors.count < 5 { tally.errors.append("\(error)") }
    }
}

/// The worker's second context: a `ModelActor`, incrementing on its own executor.
@ModelActor
actor IncrementingActor {
    func run(until deadline: Date) -> Tally {
        var tally = Tally()
        while Date() < deadline { increment(modelContainer, tally: &tally) }
        return tally
    }
}

/// `concurrency-worker`: one process of the concurrency run. Increments from the main actor and from a
/// `ModelActor` until the deadline, writes its count to `<dir>/done-<n>`, waits for every worker's count, then
/// waits until its `ResultsObserver` shows the final value.
@MainActor
struct ConcurrencyWorker {
    let storePath: String
    let directory: String
    let worker: Int
    let workers: Int
    let seconds: Double

    func run() async throws {
        let container = try ModelContainer(
            for: Counter.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: storePath)))
        let observer = try ResultsObserver(
            fetchDescriptor: FetchDescriptor<Counter>(), modelContext: container.mainContext)
        let deadline = Date().addingTimeInterval(seconds)
        let actor = IncrementingActor(modelContainer: container)
        async let actorTally = actor.run(until: deadline)
        var mainTally = Tally()
        while Date() < deadline {
            increment(container, tally: &mainTally)
            await Task.yield()
        }
        let tally = await actorTally + mainTally
        try "\(tally.increments)".write(toFile: "\(directory)/done-\(worker)", atomically: true, encoding: .utf8)
        var total: Int?
        for _ in 0..<600 where total == nil {
            let counts = (0..<workers).compactMap {
                try? String(contentsOfFile: "\(directory)/done-\($0)", encoding: .utf8)
            }
            if counts.count == workers {
                total = counts.compactMap { Int($0) }.reduce(0, +)
            } else {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        var shown = observer.results.first?.value
        for _ in 0..<200 where shown != total {
            try await Task.sleep(for: .milliseconds(25))
            shown = observer.results.first?.value
        }
        let errors = tally.errors.map { $0.replacingOccurrences(of: "\n", with: " ") }.joined(separator: " | ")
        report(
            "increments=\(tally.increments) conflicts=\(tally.conflicts) errors=\(tally.errors.count) observed=\(shown ?? -1) converged=\(shown == total ? 1 : 0) \(errors)"
        )
    }
}
