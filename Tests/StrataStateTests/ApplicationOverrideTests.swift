import StrataState
import Testing

@Suite("Dependency overrides")
@MainActor
struct ApplicationOverrideTests {
    @Test func overrideReplacesUntilCancelled() {
        let app = Application()
        let original = app.service.value
        let stub = Service(label: "stub")
        let token = app.override(\.service, with: stub)
        #expect(app.service.value === stub)
        token.cancel()
        #expect(app.service.value === original)
        #expect(app.creationLog.value.count == 1)
    }

    @Test func cancellingTwiceIsHarmless() {
        let app = Application()
        let original = app.service.value
        let token = app.override(\.service, with: Service(label: "stub"))
        token.cancel()
        let second = app.override(\.service, with: Service(label: "second"))
        token.cancel()
        #expect(app.service.value.label == "second")
        second.cancel()
        #expect(app.service.value === original)
    }

    @Test func releasingTheTokenOnMainRestoresImmediately() {
        let app = Application()
        let original = app.service.value
        do {
            let token = app.override(\.service, with: Service(label: "stub"))
            withExtendedLifetime(token) {
                #expect(app.service.value.label == "stub")
            }
        }
        #expect(app.service.value === original)
    }

    @Test func releasingTheTokenOffMainRestoresShortlyAfter() async throws {
        let app = Application()
        let original = app.service.value
        let box = TokenBox(app.override(\.service, with: Service(label: "stub")))
        #expect(app.service.value.label == "stub")
        let released = await Task.detached { box.take() != nil }.value
        #expect(released)
        var waits = 0
        while app.service.value !== original, waits < 200 {
            waits += 1
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(app.service.value === original)
    }

    @Test func newestOverrideWinsAndAnyOrderOfCancellingRestores() {
        let app = Application()
        let original = app.service.value
        let first = app.override(\.service, with: Service(label: "first"))
        let second = app.override(\.service, with: Service(label: "second"))
        #expect(app.service.value.label == "second")
        first.cancel()
        #expect(app.service.value.label == "second")
        second.cancel()
        #expect(app.service.value === original)
    }

    @Test func overrideDoesNotCreateTheValueAgain() {
        let app = Application()
        let token = app.override(\.service, with: Service(label: "stub"))
        token.cancel()
        _ = app.service.value
        #expect(app.creationLog.value.count == 1)
    }

    @Test func overridingOneDeclarationLeavesOthersAlone() {
        let app = Application()
        let token = app.override(\.service, with: Service(label: "stub"))
        #expect(app.otherService.value.label == "otherService")
        token.cancel()
    }

    @Test func overrideIsVisibleThroughExplicitIdsSharingTheScope() {
        let app = Application()
        let token = app.override(\.namedService, with: Service(label: "stub"))
        #expect(app.sameNamedService.value.label == "stub")
        #expect(app.namedNumber.value == 42)
        token.cancel()
        #expect(app.sameNamedService.value.label == "named")
    }

    @Test func staticOverrideTargetsTheScopedContainer() {
        let app = Application()
        let token = Application.withShared(app) {
            Application.override(\.service, with: Service(label: "stub"))
        }
        #expect(app.service.value.label == "stub")
        #expect(Application.withShared(app) { Application.dependency(\.service).label } == "stub")
        token.cancel()
        #expect(app.service.value.label == "service")
    }
}
