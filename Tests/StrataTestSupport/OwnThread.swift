import Foundation

/// Runs `work` on a thread of its own and suspends the calling task until it ends, returning what `work` returned
/// or throwing what it threw.
///
/// For the waits of a test that block: a child process, `initdb` or `pg_ctl`, a row lock, a migration that sleeps on
/// purpose. Swift Testing runs every test on the cooperative pool, which has one thread per core; a test blocking
/// one of them stalls every other test for as long. Record issues (`#expect`) in the test itself, with what `work`
/// returns: `work` runs outside the test's task.
package func onOwnThread<Value: Sendable, Failure: Error>(
    _ work: @escaping @Sendable () throws(Failure) -> Value
) async throws(Failure) -> Value {
    let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
        Thread { continuation.resume(returning: Result(catching: work)) }.start()
    }
    return try outcome.get()
}
