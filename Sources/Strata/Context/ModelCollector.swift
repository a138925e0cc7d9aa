/// The models a fetch makes, in order, kept as untyped references and handed out as a `[T]` by moving them.
///
/// Appending to a `[T]` in unspecialized generic code looks up generic metadata for every element, and typing a
/// collected `[AnyObject]` into a `[T]` retains every model and then releases it with the old array. A collector
/// appends without generics and moves the references into the typed array.
///
/// `enumerate` keeps one collector for all its pages (``withModels(as:_:)``, ``removeAll()``): its room is
/// allocated once, not once per page.
final class ModelCollector {
    private var elements: UnsafeMutablePointer<AnyObject>
    private var capacity: Int
    /// The number of models collected and not taken yet.
    private(set) var count = 0

    /// An empty collector with room for `capacity` models before it grows.
    init(capacity: Int = 16) {
        self.capacity = Swift.max(capacity, 1)
        elements = .allocate(capacity: self.capacity)
    }

    deinit {
        elements.deinitialize(count: count)
        elements.deallocate()
    }

    /// Adds `model` at the end.
    func append(_ model: AnyObject) {
        if count == capacity { grow() }
        (elements + count).initialize(to: model)
        count += 1
    }

    private func grow() {
        let larger = UnsafeMutablePointer<AnyObject>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: elements, count: count)
        elements.deallocate()
        elements = larger
        capacity *= 2
    }

    /// Calls `body` with the collected models, in order. Every model must be a `T`.
    func withModels<T: AnyObject, Result>(
        as _: T.Type, _ body: (UnsafeBufferPointer<T>) throws -> Result
    ) rethrows -> Result {
        // A class reference is one pointer whatever its static type.
        try elements.withMemoryRebound(to: T.self, capacity: Swift.max(count, 1)) { models in
            try body(UnsafeBufferPointer(start: models, count: count))
        }
    }

    /// Releases the collected models, keeping the room for as many.
    func removeAll() {
        let removed = count
        // Emptied first: a model's deinitializer that reached this collector would find it consistent.
        count = 0
        elements.deinitialize(count: removed)
    }

    /// Moves the collected models out, in order, leaving the collector empty. Every model must be a `T`.
    func take<T: AnyObject>(as _: T.Type) -> [T] {
        let taken = count
        guard taken > 0 else { return [] }
        let models = [T](unsafeUninitializedCapacity: taken) { buffer, initialized in
            // A class reference is one pointer whatever its static type, so the references move as they are.
            elements.withMemoryRebound(to: T.self, capacity: taken) { source in
                buffer.baseAddress!.moveInitialize(from: source, count: taken)
            }
            initialized = taken
        }
        count = 0
        return models
    }
}
