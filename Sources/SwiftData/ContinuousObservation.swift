// Observation's `withContinuousObservation(options:apply:)`, as Swift 6.4's Observation declares it (iOS 27, macOS 27),
// for the toolchains whose Observation lacks it. Built on the toolchain's tracking of `willSet` and `didSet`
// (`withObservationTracking(_:willSet:didSet:)`, the entry point SwiftUI uses), which reports the key path changed.
#if !canImport(Darwin) && compiler(<6.4)
@_spi(SwiftUI) import Observation
import Synchronization

/// Calls `apply` now and again after each change to an `@Observable` property it read, until the returned token is
/// cancelled or released.
///
/// `apply` runs on the isolation it was written in (a `@MainActor` class's initializer gives a main-actor closure):
/// first with an `.initial` event, then once after each change it heard of, at the next point where that isolation
/// is free, so the changes a synchronous piece of code makes arrive in one call (with `[.willSet, .didSet]`, a
/// `.didSet` event). Each call tracks the properties that call reads, as `withObservationTracking` does.
///
/// ```swift
/// token = withContinuousObservation(options: [.didSet]) { [weak self] event in
///     self?.bounds = self?.calculateBounds(trips: observer.results)
/// }
/// ```
///
/// - Parameters:
///   - options: The changes to hear of: `.willSet`, `.didSet` (the value is stored when `apply` runs either way, as
///     `apply` runs after the change's code); `.deinit` is accepted, and this toolchain's Observation reports no
///     deinitialization.
///   - apply: Reads the properties to track and acts on them; `event` says why it runs, which property changed
///     (`event.matches(\Trip.name)`), and `event.cancel()` stops the observation.
/// - Returns: The token that keeps the observation running.
@_disfavoredOverload
public func withContinuousObservation(
    options: ObservationTracking.Options,
    @_inheritActorContext apply: @escaping @isolated(any) @Sendable (borrowing ObservationTracking.Event) -> Void
) -> ObservationTracking.Token {
    let observation = ContinuousObservation(options: options, apply: apply)
    observation.schedule(kind: .initial, changed: nil)
    return ObservationTracking.Token(observation: observation)
}

/// A running continuous observation: calls its closure on the closure's isolation after each change it tracks.
final class ContinuousObservation: Sendable {
    private struct State {
        var cancelled = false
        /// Whether a call of the closure is scheduled and has not started.
        var scheduled = false
        /// The kind of the scheduled call's event: the last edge heard of.
        var kind = ObservationTracking.Event.Kind.initial
        /// The properties changed since the last call, in the order their changes came.
        var changed: [ChangedProperty] = []
    }

    /// A changed property's key path. Key paths are immutable, so sharing one between threads is safe.
    private struct ChangedProperty: @unchecked Sendable {
        let keyPath: AnyKeyPath
    }

    private let state = Mutex(State())
    private let options: ObservationTracking.Options
    private let apply: @isolated(any) @Sendable (borrowing ObservationTracking.Event) -> Void

    init(
        options: ObservationTracking.Options,
        apply: @escaping @isolated(any) @Sendable (borrowing ObservationTracking.Event) -> Void
    ) {
        self.options = options
        self.apply = apply
    }

    /// Stops the observation: no call starts after this. The last call's registration ends at the next change it
    /// hears of (or when the observation is released, its handlers hold it weakly).
    func cancel() {
        state.withLock { $0.cancelled = true }
    }

    /// Notes a change (or the start) and schedules a call of the closure unless one is already waiting.
    func schedule(kind: ObservationTracking.Event.Kind, changed: AnyKeyPath?) {
        let changed = changed.map(ChangedProperty.init)
        let start = state.withLock { state in
            guard !state.cancelled else { return false }
            state.kind = kind
            if let changed, !state.changed.contains(where: { $0.keyPath == changed.keyPath }) {
                state.changed.append(changed)
            }
            guard !state.scheduled else { return false }
            state.scheduled = true
            return true
        }
        guard start else { return }
        Task { await self.run(isolation: self.apply.isolation) }
    }

    /// One call of the closure on its isolation, tracking what it reads.
    private func run(isolation: isolated (any Actor)?) {
        let next = state.withLock { state -> (ObservationTracking.Event.Kind, [ChangedProperty])? in
            guard !state.cancelled else { return nil }
            state.scheduled = false
            defer { state.changed = [] }
            return (state.kind, state.changed)
        }
        guard let (kind, changed) = next else { return }
        let call = { [apply] in
            // Started on the closure's own isolation, this task calls it without suspending, on this thread, so the
            // tracking around it sees every property it reads.
            Task.immediate { [isolation] in
                _ = isolation
                await apply(ObservationTracking.Event(kind: kind, changed: changed.map(\.keyPath), observation: self))
            }
        }
        let willSet: @Sendable (Observation.ObservationTracking) -> Void = { [weak self] tracking in
            self?.heard(.willSet, tracking) ?? tracking.cancel()
        }
        let didSet: @Sendable (Observation.ObservationTracking) -> Void = { [weak self] tracking in
            self?.heard(.didSet, tracking) ?? tracking.cancel()
        }
        switch (options.contains(.willSet), options.contains(.didSet)) {
        case (true, true): _ = withObservationTracking(call, willSet: willSet, didSet: didSet)
        case (true, false): _ = withObservationTracking(call, willSet: willSet)
        case (false, true): _ = withObservationTracking(call, didSet: didSet)
        case (false, false): _ = call()
        }
    }

    /// A tracked property's `willSet` or `didSet`: ends the registration at its last edge (the `didSet` when the
    /// observation hears of both, so a call that starts between the two still hears the `didSet`), and schedules a
    /// call.
    private func heard(_ kind: ObservationTracking.Event.Kind, _ tracking: Observation.ObservationTracking) {
        if kind == .didSet || !options.contains(.didSet) { tracking.cancel() }
        schedule(kind: kind, changed: tracking.changed)
    }
}
#endif
