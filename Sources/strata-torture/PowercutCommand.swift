import Foundation

/// `powercut`: while a writer runs, its store file and WAL are copied at random moments (the writer frozen with
/// SIGSTOP for the copy, so the pair is exactly what the disk held at one instant); every copy must open to the
/// state after a prefix of the saves, holding at least every save logged by then.
@MainActor
struct PowercutCommand {
    let copies: Int
    let seed: UInt64

    /// Saves each writer makes before a fresh store is started (a check replays every save of its store).
    let savesPerWriter: Int

    func run() throws -> Bool {
        var random = SplitMix(seed: seed)
        let scratch = try ScratchDirectory("powercut")
        var checked = 0, consistent = 0, walCopies = 0, writers = 0, loggedTotal = 0
        var writer: (process: Process, store: String, log: String, seed: UInt64)?
        defer {
            if let writer {
                kill(writer.process.processIdentifier, SIGKILL)
                writer.process.waitUntilExit()
            }
        }
        let started = Date()
        for copy in 0..<copies {
            if writer == nil || !(writer?.process.isRunning ?? false) {
                if let finished = writer { loggedTotal += SideLog.count(at: finished.log) }
                writers += 1
                let store = scratch.file("powercut-\(writers).store"), log = scratch.file("saves-\(writers).log")
                let writerSeed = seed &+ UInt64(writers)
                let process = try ChildProcess.start([
                    "writer", "--store", store, "--log", log, "--seed", "\(writerSeed)",
                    "--saves", "\(savesPerWriter)",
                ])
                writer = (process, store, log, writerSeed)
            }
            guard let (child, store, log, writerSeed) = writer else { continue }
            usleep(UInt32(2_000 + random.below(40_000)))
            guard ChildProcess.freeze(child) else { continue }
            let logged = SideLog.read(at: log)
            let copyPath = scratch.file("copy-\(copy).store")
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: store + suffix) {
                try FileManager.default.copyItem(atPath: store + suffix, toPath: copyPath + suffix)
                if suffix == "-wal" { walCopies += 1 }
            }
            ChildProcess.thaw(child)
            let check = StoreCheck.run(path: copyPath, seed: writerSeed, logged: logged)
            checked += 1
            if check.failures.isEmpty {
                consistent += 1
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copyPath + suffix) }
            } else {
                report(
                    "copy \(copy) (writer seed \(writerSeed), \(logged.count) saves logged): FAILED, kept as \(copyPath)"
                )
                for failure in check.failures { report("  \(failure)") }
            }
            if (copy + 1) % 50 == 0 { report("  \(copy + 1) copies, \(consistent) consistent") }
        }
        if let running = writer {
            kill(running.process.processIdentifier, SIGKILL)
            running.process.waitUntilExit()
            loggedTotal += SideLog.count(at: running.log)
            writer = nil
        }
        let seconds = Int(Date().timeIntervalSince(started))
        report(
            "powercut: \(consistent)/\(checked) copies opened to a committed prefix of the saves (\(walCopies) with a WAL,"
                + " \(writers) writers, \(loggedTotal) saves logged, \(seconds) s)")
        if consistent == checked { scratch.remove() }
        return consistent == checked
    }
}
