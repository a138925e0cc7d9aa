extension ModelContext {
    /// Calls `block` with every model a descriptor describes, loading them `batchSize` at a time so memory stays
    /// bounded however many rows match.
    ///
    /// Only the matching primary keys are read up front; each batch is then loaded in one query. Unless
    /// `allowEscapingMutations` is `true`, models left unchanged by `block` are released from the context after
    /// their batch (changed ones stay, so `save()` writes them).
    ///
    /// ```swift
    /// try context.enumerate(FetchDescriptor<Book>()) { book in total += book.pageCount }
    /// ```
    /// - Throws: the errors of `fetch(_:)`, or what `block` throws.
    public func enumerate<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, batchSize: Int = 5000, allowEscapingMutations: Bool = false,
        block: (T) throws -> Void
    ) throws {
        try throwingSwiftDataErrors {
            try mergeChangesSavedElsewhere()
            let plan = try FetchPlan(descriptor, entity: entity(for: T.self))
            if descriptor.includePendingChanges, hasPendingChanges(for: plan.entity) {
                for model in try fetch(descriptor) { try block(model) }
                return
            }
            let entityKey = plan.entity.identityKey
            if descriptor.sortBy.isEmpty, descriptor.sortDescriptors.isEmpty, descriptor.fetchLimit == nil,
                descriptor.fetchOffset == nil
            {
                // In primary-key order: page by key, each page one query that starts after the last key seen.
                var lastKey = Int64.min
                while true {
                    var request = plan.request
                    let after = QueryExpression.compare(
                        .column(StoreLayout.primaryKeyColumn), .greater, .value(.integer(lastKey)))
                    request.condition = request.condition.map { .and([$0, after]) } ?? after
                    request.limit = Swift.max(batchSize, 1)
                    // The page's models that were registered before it stay registered after it; only they are
                    // collected (collecting every registered key would cost each page the whole identity map).
                    var registeredBefore = Set<Int64>()
                    let revisionBefore = registryRevision
                    let page: [T] = try models(request) { registeredBefore.insert($0) }
                    for model in page { try block(model) }
                    guard let last = page.last?.persistentBackingData.primaryKey else { return }
                    lastKey = last
                    if !allowEscapingMutations {
                        releaseUnchanged(
                            page, of: entityKey, keeping: registeredBefore,
                            unchangedRegistry: registryRevision == revisionBefore)
                    }
                    if page.count < Swift.max(batchSize, 1) { return }
                }
            }
            let keys = try fetchPrimaryKeys(plan.request)
            var start = 0
            while start < keys.count {
                let batch = Array(keys[start..<Swift.min(start + Swift.max(batchSize, 1), keys.count)])
                start += batch.count
                var registeredBefore = Set<Int64>()
                let revisionBefore = registryRevision
                let page = try models(batch, of: T.self, plan: plan) { registeredBefore.insert($0) }
                for model in page { try block(model) }
                if !allowEscapingMutations {
                    releaseUnchanged(
                        page, of: entityKey, keeping: registeredBefore,
                        unchangedRegistry: registryRevision == revisionBefore)
                }
            }
        }
    }

    /// Takes the unchanged models of a finished batch out of the identity map, except those of `registeredBefore`
    /// (the page's models that were registered before it was fetched).
    ///
    /// `unchangedRegistry` says that no save or removal happened since the page was fetched (`registryRevision`).
    /// Generic, so the page isn't converted to existentials (a conformance lookup per model).
    private func releaseUnchanged<Model: PersistentModel>(
        _ page: [Model], of entityKey: ObjectIdentifier, keeping registeredBefore: Set<Int64>, unchangedRegistry: Bool
    ) {
        guard var registered = registeredModels.removeValue(forKey: entityKey) else { return }
        defer { registeredModels[entityKey] = registered }
        // The usual case: no model of the page was registered before it, so the fetch registered each; nothing
        // took one out or replaced it since; nothing in the context has changes; and the block registered no other
        // model of the entity (the counts agree). The map is then exactly the page: it is emptied in one sweep that
        // keeps its slots for the next page, without touching each model.
        if registeredBefore.isEmpty, unchangedRegistry, changedModels.isEmpty, deletedModels.isEmpty,
            registered.count == page.count
        {
            registered.removeAll(keepingCapacity: true)
            return
        }
        let keepsSome = !registeredBefore.isEmpty
        for model in page {
            let data = model.persistentBackingData
            guard let key = data.primaryKey, !keepsSome || !registeredBefore.contains(key), !data.hasChanges else {
                continue
            }
            registered.removeValue(forKey: key)
        }
    }

    /// Fetches the models a descriptor describes as a collection that loads them `batchSize` at a time, on access.
    ///
    /// - Throws: the errors of `fetch(_:)` while reading the matching identifiers.
    public func fetch<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, batchSize: Int
    ) throws -> FetchResultsCollection<T> {
        try throwingSwiftDataErrors {
            try mergeChangesSavedElsewhere()
            let plan = try FetchPlan(descriptor, entity: entity(for: T.self))
            if descriptor.includePendingChanges, hasPendingChanges(for: plan.entity) {
                return FetchResultsCollection(loaded: try fetch(descriptor))
            }
            return FetchResultsCollection(
                keys: try fetchPrimaryKeys(plan.request), batchSize: Swift.max(batchSize, 1), context: self, plan: plan)
        }
    }

    /// The identifiers of the models a descriptor describes, as a collection (SwiftData's batched form of
    /// `fetchIdentifiers(_:)`). An identifier is a few bytes, so they are all read at once, whatever `batchSize`.
    ///
    /// - Throws: the errors of `fetchIdentifiers(_:)`.
    public func fetchIdentifiers<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, batchSize: Int
    ) throws -> FetchResultsCollection<PersistentIdentifier> {
        FetchResultsCollection(loaded: try fetchIdentifiers(descriptor))
    }

    /// Loads the models with `keys`, in the order of `keys`; `foundRegistered` is called with the key of each one
    /// that was registered before.
    func models<T: PersistentModel>(
        _ keys: [Int64], of type: T.Type, plan: FetchPlan,
        foundRegistered: ((Int64) -> Void)? = nil
    ) throws -> [T] {
        var request = plan.request
        request.condition = nil
        request.keyFilter = (StoreLayout.primaryKeyColumn, keys)
        request.ordering = []
        request.limit = nil
        request.offset = nil
        let loaded: [T] = try models(request, foundRegistered: foundRegistered)
        // Put in the order of `keys` through non-generic collections (see `ModelCollector`).
        var byKey: [Int64: AnyObject] = [:]
        byKey.reserveCapacity(loaded.count)
        for model in loaded {
            if let key = model.persistentBackingData.primaryKey { byKey[key] = model }
        }
        let ordered = ModelCollector(capacity: keys.count)
        for key in keys { if let model = byKey[key] { ordered.append(model) } }
        return ordered.take(as: T.self)
    }
}

/// Fetched models as a random-access collection: the results of `ModelContext.fetch(_:batchSize:)`, which loads
/// its models in batches when they are first accessed, and the `results` a `ResultsObserver` publishes, which holds
/// them all.
///
/// A value: it doesn't change after you get it; an observer replaces its `results` with a new one on every refresh.
public struct FetchResultsCollection<Element>: RandomAccessCollection {
    private final class Storage {
        let keys: [Int64]
        let batchSize: Int
        /// Loads the elements of a batch's keys, in their order; `nil` when every element is in `loaded`.
        let load: (([Int64]) -> [Element])?
        let loaded: [Element]
        var batches: [Int: [Element]] = [:]
        var recentBatches: [Int] = []

        init(keys: [Int64], batchSize: Int, load: (([Int64]) -> [Element])?, loaded: [Element]) {
            self.keys = keys
            self.batchSize = batchSize
            self.load = load
            self.loaded = loaded
        }
    }

    /// How many loaded batches are kept; older ones are released and reloaded if accessed again.
    private static var retainedBatches: Int { 4 }
    private let storage: Storage
    public let count: Int

    init(keys: [Int64], batchSize: Int, context: ModelContext, plan: FetchPlan) where Element: PersistentModel {
        let load = { (keys: [Int64]) -> [Element] in
            let loaded = (try? context.models(keys, of: Element.self, plan: plan)) ?? []
            var byKey: [Int64: Element] = [:]
            for model in loaded {
                if let key = model.persistentBackingData.primaryKey { byKey[key] = model }
            }
            return keys.map { key in byKey[key] ?? context.standIn(Element.self, entity: plan.entity, primaryKey: key) }
        }
        storage = Storage(keys: keys, batchSize: batchSize, load: load, loaded: [])
        count = keys.count
    }

    init(loaded: [Element]) {
        storage = Storage(keys: [], batchSize: 1, load: nil, loaded: loaded)
        count = loaded.count
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The element at `position`, loading its batch if needed. A model deleted from the store since the fetch
    /// comes back with `isDeleted == true`.
    public subscript(position: Int) -> Element {
        let storage = storage
        guard let load = storage.load else { return storage.loaded[position] }
        let batchIndex = position / storage.batchSize
        if let batch = storage.batches[batchIndex] { return batch[position % storage.batchSize] }
        let start = batchIndex * storage.batchSize
        let batch = load(Array(storage.keys[start..<Swift.min(start + storage.batchSize, storage.keys.count)]))
        storage.batches[batchIndex] = batch
        storage.recentBatches.append(batchIndex)
        if storage.recentBatches.count > Self.retainedBatches {
            storage.batches[storage.recentBatches.removeFirst()] = nil
        }
        return batch[position - start]
    }
}

extension FetchResultsCollection where Element: PersistentModel {
    /// The models' identifiers, in order (a batched collection loads every batch to tell them).
    public var identifiers: [PersistentIdentifier] { map(\.persistentModelID) }
}
