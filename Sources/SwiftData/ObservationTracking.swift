// Observation's `ObservationTracking` namespace with its `Options`, `Event` and `Token`, as Swift 6.4's Observation
// declares them (iOS 27, macOS 27), for the toolchains whose Observation lacks them: `withContinuousObservation`
// takes and gives these. Each is declared only where Observation has none, so an app never sees two.
#if !canImport(Darwin) && compiler(<6.4)
import Observation

/// The namespace of Observation's tracking types: the options, events and tokens of
/// `withContinuousObservation(options:apply:)`.
public struct ObservationTracking: Sendable {
    private init() {}
}

extension ObservationTracking {
    /// Which changes an observation hears of: a tracked property's `willSet`, its `didSet`, or the `deinit` of an
    /// observed object. Combine them as a set: `[.willSet, .didSet]`.
    public struct Options: SetAlgebra, Sendable {
        private var bits: UInt8

        private init(bits: UInt8) { self.bits = bits }

        /// No events.
        public init() { bits = 0 }

        /// Before a tracked property changes: the new value is not yet stored.
        public static var willSet: Options { Options(bits: 1) }

        /// After a tracked property changed: the new value is stored.
        public static var didSet: Options { Options(bits: 2) }

        /// When an observed object is deinitialized. The Observation of this toolchain reports no deinitialization,
        /// so an observation given only this option hears of nothing after its initial event.
        public static var `deinit`: Options { Options(bits: 4) }

        /// Whether every option of `member` is in this set.
        public func contains(_ member: Options) -> Bool { bits & member.bits == member.bits }

        /// The options in this set or in `other`.
        public func union(_ other: Options) -> Options { Options(bits: bits | other.bits) }

        /// The options in both this set and `other`.
        public func intersection(_ other: Options) -> Options { Options(bits: bits & other.bits) }

        /// The options in exactly one of this set and `other`.
        public func symmetricDifference(_ other: Options) -> Options { Options(bits: bits ^ other.bits) }

        /// Adds `newMember`'s options, telling whether any was missing.
        @discardableResult
        public mutating func insert(_ newMember: Options) -> (inserted: Bool, memberAfterInsert: Options) {
            let inserted = !contains(newMember)
            bits |= newMember.bits
            return (inserted, newMember)
        }

        /// Removes `member`'s options, returning those that were in the set, or `nil` when none was.
        @discardableResult
        public mutating func remove(_ member: Options) -> Options? {
            let removed = intersection(member)
            bits &= ~member.bits
            return removed.isEmpty ? nil : removed
        }

        /// Adds `newMember`'s options, returning those that were already in the set, or `nil` when none was.
        @discardableResult
        public mutating func update(with newMember: Options) -> Options? {
            let present = intersection(newMember)
            bits |= newMember.bits
            return present.isEmpty ? nil : present
        }

        /// Adds the options of `other`.
        public mutating func formUnion(_ other: Options) { bits |= other.bits }

        /// Keeps only the options also in `other`.
        public mutating func formIntersection(_ other: Options) { bits &= other.bits }

        /// Keeps the options in exactly one of this set and `other`.
        public mutating func formSymmetricDifference(_ other: Options) { bits ^= other.bits }
    }

    /// What an observation's closure is called for: its kind, which property changed, and a way to stop observing.
    public struct Event: ~Copyable {
        /// The kind of an event: the initial call, a property's `willSet` or `didSet`, or an object's `deinit`.
        public struct Kind: Equatable, Sendable {
            private let value: UInt8

            /// The first call of a continuous observation, when it starts.
            public static var initial: Kind { Kind(value: 0) }

            /// A tracked property is about to change.
            public static var willSet: Kind { Kind(value: 1) }

            /// A tracked property changed.
            public static var didSet: Kind { Kind(value: 2) }

            /// An observed object was deinitialized.
            public static var `deinit`: Kind { Kind(value: 3) }
        }

        /// The kind of change this event reports.
        public private(set) var kind: Kind

        /// The key paths of the properties whose changes this event reports.
        let changed: [AnyKeyPath]

        /// The continuous observation the event belongs to, which `cancel()` stops.
        let observation: ContinuousObservation?

        /// Whether the property at `keyPath` is the one whose change this event reports (for changes that came
        /// together before the closure ran, any of them). An initial or deinit event matches no property.
        public func matches(_ keyPath: PartialKeyPath<some Observable>) -> Bool {
            changed.contains { $0 == keyPath }
        }

        /// Stops the observation: its closure is not called again.
        public func cancel() {
            observation?.cancel()
        }
    }

    /// Keeps a continuous observation running: the observation stops when the token is cancelled or released.
    ///
    /// Keep it as long as the closure should run, typically in a property of the object the closure updates. Apple's
    /// token is noncopyable; this one is copyable, because the `@Observable` macro of this toolchain can't hold a
    /// noncopyable property, and stops the observation when its last copy is released (or any copy is cancelled).
    public struct Token {
        /// Cancels the observation when the last copy of the token goes.
        private final class Lifetime: Sendable {
            let observation: ContinuousObservation

            init(_ observation: ContinuousObservation) { self.observation = observation }

            deinit { observation.cancel() }
        }

        private let lifetime: Lifetime

        init(observation: ContinuousObservation) { lifetime = Lifetime(observation) }

        /// Stops the observation: its closure is not called again.
        public consuming func cancel() {
            lifetime.observation.cancel()
        }
    }
}
#endif
