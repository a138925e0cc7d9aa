/// The dependency container your app reads its services from.
///
/// Declare each dependency once, as a computed property in an extension, and read it from anywhere
/// on the main actor. The value is created the first time it is read and cached for the lifetime of
/// the container:
///
/// ```swift
/// extension Application {
///     var networkService: Dependency<NetworkService> {
///         dependency(NetworkService(), id: "network")
///     }
/// }
///
/// let service = Application.dependency(\.networkService)
/// ```
///
/// ## One container per test
///
/// ``shared`` is the process-wide container unless the current task runs inside
/// ``withShared(_:operation:)``. Tests that run in parallel give each test its own
/// container, so overrides and cached values never leak between them:
///
/// ```swift
/// @Test @MainActor func loadsProfile() async throws {
///     let app = Application()
///     let token = app.override(\.networkService, with: StubNetworkService())
///     defer { token.cancel() }
///     try await Application.withShared(app) {
///         try await ProfileViewModel().load()   // sees the stub through Application.shared
///     }
/// }
/// ```
///
/// The scope is a task-local value: child tasks created inside the operation inherit it,
/// detached tasks and other tests do not.
@MainActor
public final class Application {
    /// Values created by ``dependency(_:feature:id:fileID:function:line:column:)``, keyed by scope and type.
    var cache: [CacheKey: Any] = [:]
    /// Active overrides per dependency, newest last; the newest one wins.
    var overrides: [CacheKey: [OverrideLayer]] = [:]
    /// The identifier handed to the next ``DependencyOverride``.
    var nextOverrideID: UInt64 = 0

    /// Whether debug and info entries reach `logger`. Error entries are always delivered.
    ///
    /// Off by default. ``logging(isEnabled:)`` switches it for ``shared``.
    public var isLoggingEnabled: Bool = false

    /// Where this container writes its log entries; ``StandardErrorLogger`` unless replaced.
    ///
    /// ```swift
    /// let app = Application()
    /// app.logger = MyCapturingLogger()
    /// ```
    public var logger: any ApplicationLogger = StandardErrorLogger()

    /// Creates an empty container, independent of ``shared`` and of every other container.
    ///
    /// Nothing is cached yet: each dependency is created on its first read from this container.
    public init() {}
}
