import StrataState
import Testing

@Suite("Separate containers and task-local scoping")
@MainActor
struct ApplicationSharedTests {
    @Test func containersDoNotShareValues() {
        let first = Application()
        let second = Application()
        #expect(first.service.value !== second.service.value)
        #expect(first.creationLog.value.count == 1)
        #expect(second.creationLog.value.count == 1)
    }

    @Test func overridesStayInTheirContainer() {
        let first = Application()
        let second = Application()
        let stub = Service(label: "stub")
        let token = first.override(\.service, with: stub)
        #expect(first.service.value === stub)
        #expect(second.service.value.label == "service")
        token.cancel()
    }

    @Test func scopingEndsWithTheOperation() {
        let app = Application()
        Application.withShared(app) {
            #expect(Application.shared === app)
        }
        #expect(Application.shared !== app)
    }

    @Test func scopesNestAndRestore() {
        let outer = Application()
        let inner = Application()
        Application.withShared(outer) {
            Application.withShared(inner) {
                #expect(Application.shared === inner)
            }
            #expect(Application.shared === outer)
        }
    }

    @Test func throwingOperationRethrows() {
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try Application.withShared(Application()) { throw Failure() }
        }
    }

    @Test func concurrentTasksEachSeeTheirOwnContainer() async {
        let apps = (0..<4).map { _ in Application() }
        let expected = apps.map { $0.service.value }
        await withTaskGroup(of: Bool.self) { group in
            for (app, service) in zip(apps, expected) {
                group.addTask {
                    await Self.readsOnly(service, scopedTo: app)
                }
            }
            for await sawOwnContainer in group {
                #expect(sawOwnContainer)
            }
        }
    }

    /// Reads `\.service` twice through `Application.shared` while scoped to `app`, yielding
    /// so that concurrent callers interleave on the main actor.
    private static func readsOnly(_ service: Service, scopedTo app: Application) async -> Bool {
        await Application.withShared(app) {
            await Task.yield()
            let before = Application.dependency(\.service)
            await Task.yield()
            let after = Application.dependency(\.service)
            return before === service && after === service
        }
    }

    @Test func childTasksInheritTheScope() async {
        let app = Application()
        let inherited = await Application.withShared(app) {
            await Task { @MainActor in Application.shared === app }.value
        }
        #expect(inherited)
    }
}
