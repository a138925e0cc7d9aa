import StrataState
import Testing

@Suite("Application logging")
@MainActor
struct ApplicationLoggingTests {
    private func makeApplication(logging: Bool) -> (Application, LogRecorder) {
        let app = Application()
        let recorder = LogRecorder()
        app.logger = recorder
        app.isLoggingEnabled = logging
        return (app, recorder)
    }

    @Test func loggingIsOffByDefault() {
        let (app, recorder) = makeApplication(logging: false)
        #expect(app.isLoggingEnabled == false)
        _ = app.service.value
        let token = app.override(\.service, with: Service(label: "stub"))
        token.cancel()
        #expect(recorder.entries.isEmpty)
    }

    @Test func creationIsLoggedAtTheDeclaration() throws {
        let (app, recorder) = makeApplication(logging: true)
        _ = app.namedService
        _ = app.namedService
        let creations = recorder.entries.filter { $0.message.hasPrefix("Creating dependency") }
        let entry = try #require(creations.first { $0.message.contains("Network.shared-service") })
        #expect(creations.count(where: { $0.message.contains("Network.shared-service") }) == 1)
        #expect(entry.level == .debug)
        #expect(entry.fileID == "StrataStateTests/Fixtures.swift")
        #expect(entry.function == "namedService")
    }

    @Test func staticReadsAreLoggedAtTheCaller() throws {
        let (app, recorder) = makeApplication(logging: true)
        let line = Application.withShared(app) { () -> Int in
            let (_, line) = (Application.dependency(\.service), #line)
            return line
        }
        let entry = try #require(recorder.entries.last)
        #expect(entry.level == .debug)
        #expect(entry.message.hasPrefix("Reading dependency App."))
        #expect(entry.fileID == "StrataStateTests/ApplicationLoggingTests.swift")
        #expect(entry.line == line)
    }

    @Test func overridesAreLoggedAsInfo() {
        let (app, recorder) = makeApplication(logging: true)
        let token = app.override(\.namedService, with: Service(label: "stub"))
        token.cancel()
        let info = recorder.entries.filter { $0.level == .info }.map(\.message)
        #expect(
            info == [
                "Overriding dependency Network.shared-service",
                "Removed override of dependency Network.shared-service",
            ])
    }

    @Test func errorsAreDeliveredEvenWhenLoggingIsOff() {
        let (app, recorder) = makeApplication(logging: false)
        app.log(.debug, "hidden")
        app.log(.error, "save failed")
        #expect(recorder.entries.map(\.message) == ["save failed"])
        #expect(recorder.entries.first?.level == .error)
    }

    @Test func staticConveniencesConfigureTheSharedContainer() {
        let app = Application()
        let recorder = LogRecorder()
        Application.withShared(app) {
            Application.logger = recorder
            Application.logging(isEnabled: true)
            _ = Application.dependency(\.service)
            Application.logging(isEnabled: false)
            _ = Application.dependency(\.otherService)
        }
        #expect(app.isLoggingEnabled == false)
        #expect(app.logger is LogRecorder)
        let messages = recorder.entries.map(\.message)
        #expect(messages.contains { $0.hasPrefix("Creating dependency") && $0.contains("service") })
        #expect(messages.contains { $0.contains("otherService") } == false)
    }

    @Test func entriesDescribeThemselves() {
        let entry = Application.LogEntry(
            level: .info, message: "hello", fileID: "App/File.swift", function: "f()", line: 3, column: 7
        )
        #expect(entry.description == "[info] hello (App/File.swift:3:7)")
        #expect(Application.LogEntry.Level.debug < .info)
        #expect(Application.LogEntry.Level.info < .error)
    }
}
