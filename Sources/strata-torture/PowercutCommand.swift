import Foundation

/// `powercut`: while a writer runs, its store file and WAL are copied at random moments (the writer frozen with
/// SIGSTOP for the copy, so the pair is exactly what the disk held at one instant); every copy must open to the
/// state after a prefix of the saves, holding at least every save logged by then.
@MainActor
struct PowercutCommand {
    let copies: Int
    let seed: UInt64

    func run() throws -> Bool {
        var random = SplitMix(seed: seed)
        let scratch = try ScratchDirectory("powercut")
        let store = scratch.file("powercut.store"), log = scratch.file("saves.log")
        let child = try ChildProcess.start(["writer", "--store", store, "--log", log, "--seed", "\(seed)", "--saves", "1000000"])
        defer {
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
        }
        var checked = 0, consistent = 0, walCopies = 0
        let started = Date()
        for copy in 0..<copies {
            usleep(UInt32(2_000 + random.below(40_000)))
            guard ChildProcess.freeze(child) else { throw TortureError("the writer stopped: \(child.terminationStatus)") }
            let logged = SideLog.read(at: log)
            let copyPath = scratch.file("copy-\(copy).store")
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: store + suffix) {
                try FileManager.default.copyItem(atPath: store + suffix, toPath: copyPath + suffix)
                if suffix == "-wal" { walCopies += 1 }
            }
            ChildProcess.thaw(child)
            let check = StoreCheck.run(path: copyPath, seed: seed, logged: logged)
            checked += 1
            if check.failures.isEmpty {
                consistent += 1
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copyPath + suffix) }
            } else {
                report("copy \(copy) (\(logged.count) saves logged): FAILED, kept as \(copyPath)")
                for failure in check.failures { report("  \(failure)") }
            }
            guard child.isRunning else { throw TortureError("the writer exited before every copy was taken") }
        }
        let seconds = Int(Date().timeIntervalSince(started))
        report("powercut: \(consistent)/\(checked) copies opened to a committed prefix of the saves (\(walCopies) with a WAL,"
              + " \(SideLog.count(at: log)) saves logged, \(seconds) s)")
        if consistent == checked { scratch.remove() }
        return consistent == checked
    }
}
