import Dispatch

/// Runs a `ModelActor`'s jobs and owns its context.
public protocol ModelExecutor: AnyObject, Sendable {
    /// The context the actor works with.
    var modelContext: ModelContext { get }
}

/// A model executor that is also the actor's serial executor, so the context is only used on it.
public protocol SerialModelExecutor: ModelExecutor, SerialExecutor {}

/// Runs an actor's jobs one at a time on a private dispatch queue, with its own `ModelContext`.
public final class DefaultSerialModelExecutor: SerialModelExecutor, @unchecked Sendable {
    // `@unchecked`: the context is only touched by jobs this executor runs, one at a time.
    /// The context the actor works with.
    public let modelContext: ModelContext
    private let queue: DispatchQueue

    /// Creates an executor around a context.
    public init(modelContext: ModelContext) {
        self.modelContext = modelContext
        self.queue = DispatchQueue(label: "Strata.DefaultSerialModelExecutor")
        // The context's autosave runs on the actor's queue, between its jobs.
        modelContext.autosaveQueue = queue
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unownedJob = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async {
            unownedJob.runSynchronously(on: executor)
        }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}

/// An actor that works with models on its own context, off the main actor, as in SwiftData.
///
/// Apply `@ModelActor` to an actor to conform it, then hand models in and out by `PersistentIdentifier`:
/// ```swift
/// @ModelActor actor Importer {
///     func importBooks(_ titles: [String]) throws {
///         for title in titles { modelContext.insert(Book(title: title)) }
///         try modelContext.save()
///     }
/// }
/// let importer = Importer(modelContainer: container)
/// try await importer.importBooks(["Dune"])
/// ```
public protocol ModelActor: Actor {
    /// The executor that runs the actor and owns its context.
    nonisolated var modelExecutor: any ModelExecutor { get }
    /// The container the actor's context belongs to.
    nonisolated var modelContainer: ModelContainer { get }
}

extension ModelActor {
    /// Runs the actor on its model executor when that executor is serial.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        if let serial = modelExecutor as? any SerialModelExecutor {
            return serial.asUnownedSerialExecutor()
        }
        // A model executor that isn't serial still must not run the actor's jobs concurrently.
        return SharedSerialExecutor.shared.asUnownedSerialExecutor()
    }

    /// The actor's own context.
    public var modelContext: ModelContext { modelExecutor.modelContext }

    /// The model with an identifier in the actor's context, if it exists and is a `T`.
    public subscript<T: PersistentModel>(_ identifier: PersistentIdentifier, as type: T.Type) -> T? {
        try? modelContext.existingModel(for: identifier)
    }
}

/// One process-wide serial executor for model actors whose model executor is not serial.
final class SharedSerialExecutor: SerialExecutor {
    static let shared = SharedSerialExecutor()
    private let queue = DispatchQueue(label: "Strata.SharedSerialExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
        let unownedJob = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { unownedJob.runSynchronously(on: executor) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
