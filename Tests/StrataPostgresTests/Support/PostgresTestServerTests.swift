import Foundation
import StrataTestSupport
import Testing

@Suite("PostgresTestServer")
struct PostgresTestServerTests {
    /// A watcher that outlives the test must not keep another test's output pipe open: that test would wait for the
    /// end of its output until the whole test process ends (a hang of the suite, seen when a pgbouncer started
    /// while a child process's output was being read).
    @Test func aShellLeftRunningHoldsNoPipeOfThisProcess() throws {
        let pipe = Pipe()
        // Runs until this test process ends, as the watchers of servers do.
        PostgresTestServer.runWhenThisProcessEnds("true")
        try pipe.fileHandleForWriting.close()
        var request = pollfd(fd: pipe.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        // The end of the pipe's output comes once every writer has closed it: at once here, within the moment
        // the shell takes to close what it inherited.
        guard poll(&request, 1, 10_000) == 1 else {
            Issue.record("the pipe's end never came: a process started by the test support holds its write end")
            return
        }
        #expect(try pipe.fileHandleForReading.read(upToCount: 1)?.isEmpty ?? true)
    }
}
