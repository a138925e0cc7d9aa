import Foundation

/// `crash`: a writer child is killed with SIGKILL at a random save (and a random moment within it), again and
/// again; after each kill the store must open, pass `PRAGMA integrity_check`, hold every logged save in full and
/// no save in part.
@MainActor
struct CrashCommand {
    let kills: Int
    let saves: Int
    let seed: UInt64

    /// Runs the kills and prints the figure; returns whether every kill was survived with no save lost.
    func run() throws -> Bool {
        var random = SplitMix(seed: seed)
        var survived = 0, savesLost = 0, finishedBeforeKill = 0, logged = 0
        let started = Date()
        for round in 0..<kills {
            let scratch = try ScratchDirectory("crash")
            let store = scratch.file("crash.store"), log = scratch.file("saves.log")
            let roundSeed = seed &+ UInt64(round)
            let target = random.below(saves)
            let child = try ChildProcess.start([
                "writer", "--store", store, "--log", log, "--seed", "\(roundSeed)", "--saves", "\(saves)",
            ])
            // Wait for the target save to be logged, then kill at a random moment of the saves after it.
            while child.isRunning, SideLog.count(at: log) < target { usleep(200) }
            usleep(UInt32(random.below(3_000)))
            if child.isRunning { kill(child.processIdentifier, SIGKILL) } else { finishedBeforeKill += 1 }
            child.waitUntilExit()
            let entries = SideLog.read(at: log)
            logged += entries.count
            let check = StoreCheck.run(path: store, seed: roundSeed, logged: entries)
            if check.failures.isEmpty {
                survived += 1
                scratch.remove()
            } else {
                savesLost += max(0, (entries.last?.number ?? 0) - (check.saves ?? 0))
                report(
                    "kill \(round + 1) (seed \(roundSeed), killed after \(entries.count) logged saves): FAILED, files kept in \(scratch.path)"
                )
                for failure in check.failures { report("  \(failure)") }
            }
            if (round + 1) % 20 == 0 { report("  \(round + 1) kills, \(survived) survived") }
        }
        let seconds = Int(Date().timeIntervalSince(started))
        report(
            "crash: \(survived)/\(kills) kills survived, \(savesLost) saves lost, \(logged) logged saves checked,"
                + " \(finishedBeforeKill) writers finished before the kill (\(seconds) s)")
        return survived == kills && savesLost == 0
    }
}
