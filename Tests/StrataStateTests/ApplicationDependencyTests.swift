import StrataState
import Testing

@Suite("Application dependencies")
@MainActor
struct ApplicationDependencyTests {
    @Test func valueIsCreatedOnceAndCached() {
        let app = Application()
        let first = app.service.value
        let second = app.service.value
        #expect(first === second)
        #expect(app.creationLog.value.count == 1)
    }

    @Test func valueIsNotCreatedUntilRead() {
        let app = Application()
        #expect(app.creationLog.value.count == 0)
        _ = app.service
        #expect(app.creationLog.value.count == 1)
    }

    @Test func declarationsWithoutIdsGetDistinctCallSiteIds() {
        let app = Application()
        let service = app.service
        let other = app.otherService
        #expect(service.scope != other.scope)
        #expect(service.scope.id.contains("service"))
        #expect(other.scope.id.contains("otherService"))
        #expect(service.scope.id.contains("StrataStateTests/Fixtures.swift"))
        #expect(service.value !== other.value)
        #expect(service.value.label == "service")
        #expect(other.value.label == "otherService")
        #expect(app.creationLog.value.count == 2)
    }

    @Test func explicitIdsNameTheScopeAndShareTheValue() {
        let app = Application()
        let named = app.namedService
        #expect(named.scope == Application.Scope(feature: "Network", id: "shared-service"))
        #expect(named.scope.description == "Network.shared-service")
        let sameNamed = app.sameNamedService
        #expect(sameNamed.value === named.value)
        #expect(sameNamed.value.label == "named")
        #expect(app.creationLog.value.count == 1)
    }

    @Test func sameIdWithAnotherTypeIsStoredSeparately() {
        let app = Application()
        _ = app.namedService
        #expect(app.namedNumber.value == 42)
        #expect(app.namedService.value.label == "named")
    }

    @Test func defaultFeatureIsApp() {
        #expect(Application().creationLog.scope == Application.Scope(feature: "App", id: "creationLog"))
    }

    @Test func staticAccessorReadsTheSharedContainer() {
        let app = Application()
        let service = app.service.value
        let read = Application.withShared(app) {
            Application.dependency(\.service)
        }
        #expect(read === service)
        #expect(app.creationLog.value.count == 1)
    }
}
