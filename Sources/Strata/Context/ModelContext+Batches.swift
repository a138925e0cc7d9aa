extension ModelContext {
    /// Calls `block` with every model a descriptor describes, loading them `batchSize` at a time so memory stays
    /// bounded however many rows match.
    ///
    /// Each batch is one query: in primary-key order (a descriptor with no sort, limit or offset), the batch after
    /// the last key seen, every batch running the same statement with its own key bound in it; in a sort's order,
    /// the first batch is the query with a limit and the matching keys of the rest are read after it, each later
    /// batch loaded by key. Unless `allowEscapingMutations` is `true`, models left unchanged by `block` are released
    /// from the context after their batch (changed ones stay, so `save()` writes them).
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
            let plan = try fetchPlan(for: descriptor)
            if descriptor.includePendingChanges, hasPendingChanges(for: plan.entity) {
                for model in try fetch(descriptor) { try block(model) }
                return
            }
            let entityKey = plan.entity.identityKey
            let pageSize = Swift.max(batchSize, 1)
            // One list of models and one scratch for every page, emptied after each.
            let page = ModelCollector(capacity: Swift.min(pageSize, Self.reservedRowsLimit))
            let scratch = FetchScratch()
            if descriptor.sortBy.isEmpty, descriptor.sortDescriptors.isEmpty, descriptor.fetchLimit == nil,
                descriptor.fetchOffset == nil
            {
                // In primary-key order: page by key, each page one query that starts after the last key seen.
                // Every page is the same statement, with the last key bound in it (`StoreFetch.startAfterKey`).
                var request = plan.request
                request.limit = pageSize
                request.startAfterKey = Int64.min
                while true {
                    let visited = try visitPage(page, as: T.self, of: entityKey, allowEscapingMutations, block) {
                        foundRegistered in
                        try appendModels(
                            request, as: T.self, to: page, reusing: scratch, foundRegistered: foundRegistered)
                    }
                    guard let last = visited.lastKey else { return }
                    request.startAfterKey = last
                    if visited.count < pageSize { return }
                }
            }
            // In the fetch's own order. The first page is the query itself with a limit, so a caller that stops
            // early (or a result that fits one page) never waits for every matching key; the keys of the rest are
            // read after the first page, leaving out the models it had.
            let firstLimit = Swift.min(plan.request.limit ?? .max, pageSize)
            var firstPage = plan.request
            firstPage.limit = firstLimit
            var seen = Set<Int64>()
            let first = try visitPage(page, as: T.self, of: entityKey, allowEscapingMutations, block) {
                foundRegistered in
                try appendModels(firstPage, as: T.self, to: page, reusing: scratch, foundRegistered: foundRegistered)
                page.withModels(as: T.self) { models in
                    seen.reserveCapacity(models.count)
                    for model in models { if let key = model.persistentBackingData.primaryKey { seen.insert(key) } }
                }
            }
            if first.count < firstLimit || plan.request.limit == firstLimit { return }
            let keys = try store.fetchKeys(plan.request).filter { !seen.contains($0) }
            var start = 0
            while start < keys.count {
                let batch = Array(keys[start..<Swift.min(start + pageSize, keys.count)])
                start += batch.count
                _ = try visitPage(page, as: T.self, of: entityKey, allowEscapingMutations, block) { foundRegistered in
                    for model in try models(batch, of: T.self, plan: plan, foundRegistered: foundRegistered) {
                        page.append(model)
                    }
                }
            }
        }
    }

    /// Loads one page of `enumerate` into `page` (empty) with `load`, calls `block` with each of its models, then
    /// (unless `allowEscapingMutations`) releases the unchanged ones that weren't registered before the page, and
    /// empties `page`, keeping its room.
    /// - Returns: how many models the page had, and the primary key of its last.
    private func visitPage<T: PersistentModel>(
        _ page: ModelCollector, as _: T.Type, of entityKey: ObjectIdentifier, _ allowEscapingMutations: Bool,
        _ block: (T) throws -> Void, load: (_ foundRegistered: @escaping (Int64) -> Void) throws -> Void
    ) throws -> (count: Int, lastKey: Int64?) {
        // The page's models that were registered before it stay registered after it; only they are collected
        // (collecting every registered key would cost each page the whole identity map).
        var registeredBefore = Set<Int64>()
        let revisionBefore = registry.revision
        try load { registeredBefore.insert($0) }
        // Every model of the page is a `T` (`appendModels`, `models(_:of:plan:)`).
        let visited = try page.withModels(as: T.self) { models in
            // By index: this code is generic and unspecialized, where the buffer's iterator is a call per model.
            for index in models.indices { try block(models[index]) }
            if !allowEscapingMutations {
                releaseUnchanged(
                    models, of: entityKey, keeping: registeredBefore,
                    unchangedRegistry: registry.revision == revisionBefore)
            }
            return (models.count, models.last?.persistentBackingData.primaryKey)
        }
        page.removeAll()
        return visited
    }

    /// Takes the unchanged models of a finished batch out of the identity map, except those of `registeredBefore`
    /// (the page's models that were registered before it was fetched).
    ///
    /// `unchangedRegistry` says that no save or removal happened since the page was fetched (`ModelRegistry.revision`).
    /// Generic, so the page isn't converted to existentials (a conformance lookup per model).
    private func releaseUnchanged<Model: PersistentModel>(
        _ page: UnsafeBufferPointer<Model>, of entityKey: ObjectIdentifier, keeping registeredBefore: Set<Int64>,
        unchangedRegistry: Bool
    ) {
        guard registry.count(of: entityKey) > 0 else { return }
        var registered = registry.takeMap(of: entityKey)
        defer { registry.restoreMap(registered, of: entityKey) }
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
            let plan = try fetchPlan(for: descriptor)
            if descriptor.includePendingChanges, hasPendingChanges(for: plan.entity) {
                return FetchResultsCollection(loaded: try fetch(descriptor))
            }
            return FetchResultsCollection(
                keys: try store.fetchKeys(plan.request), batchSize: Swift.max(batchSize, 1), context: self, plan: plan)
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
    /// that was registered before. A key with no row is left out, or stands for `missing(key)` when given.
    func models<T: PersistentModel>(
        _ keys: [Int64], of type: T.Type, plan: FetchPlan,
        foundRegistered: ((Int64) -> Void)? = nil, missing: ((Int64) -> T)? = nil
    ) throws -> [T] {
        var request = plan.request
        request.condition = nil
        request.keyFilter = (StoreLayout.primaryKeyColumn, keys)
        // Keys that follow one another (a batch of a list in key order) are read as a range in key order, which the
        // store does without a sort: a row for every key is then a row for each key in its place.
        let isRun = keys.consecutiveRun != nil
        let keyOrder = QueryOrdering(
            expression: .column(StoreLayout.primaryKeyColumn), ascending: true, collation: .binary)
        request.ordering = isRun ? [keyOrder] : []
        request.limit = nil
        request.offset = nil
        let loaded: [T] = try models(request, foundRegistered: foundRegistered)
        if isRun, loaded.count == keys.count { return loaded }
        // Put in the order of `keys` through non-generic collections (see `ModelCollector`).
        var byKey: [Int64: AnyObject] = [:]
        byKey.reserveCapacity(loaded.count)
        for model in loaded {
            if let key = model.persistentBackingData.primaryKey { byKey[key] = model }
        }
        let ordered = ModelCollector(capacity: keys.count)
        for key in keys {
            if let model = byKey[key] {
                ordered.append(model)
            } else if let missing {
                ordered.append(missing(key))
            }
        }
        return ordered.take(as: T.self)
    }

    /// The first batch of `fetch(_:batchSize:)`: the fetch's own query with a limit, when its rows are still the
    /// ones `keys` names (no write since the keys were read moved a row into or out of it); `nil` otherwise.
    ///
    /// Reading the first rows in the query's order costs what the keys cost to look up one by one, less the
    /// lookups: the batch a list shows first comes without a key list.
    func firstBatch<T: PersistentModel>(_ keys: ArraySlice<Int64>, of type: T.Type, plan: FetchPlan) throws -> [T]? {
        var request = plan.request
        request.limit = Swift.min(request.limit ?? .max, keys.count)
        // Compared as the rows come, on existentials: a loop over a `[T]` here would run unspecialized.
        var position = keys.startIndex
        var matches = true
        let rows: [T] = try models(
            request,
            each: { model in
                matches =
                    matches && position < keys.endIndex && model.persistentBackingData.primaryKey == keys[position]
                position += 1
            })
        return matches && position == keys.endIndex ? rows : nil
    }
}

/// Fetched models as a random-access collection: the results of `ModelContext.fetch(_:batchSize:)`, which loads
/// its models in batches when they are first accessed, and the `results` a `ResultsObserver` publishes, which holds
/// them all.
///
/// A value: it doesn't change after you get it; an observer replaces its `results` with a new one on every refresh.
/// Its count and order are those of the keys read by the fetch. Read in order, it reads ahead: each query then
/// loads as many batches as were read in order before it (up to 5,000 models, or one batch if larger), so a list
/// read from start to end costs a few dozen queries rather than one per batch; an element read out of order loads
/// its own batch only.
public struct FetchResultsCollection<Element>: RandomAccessCollection {
    @usableFromInline final class Storage {
        let keys: [Int64]
        let batchSize: Int
        /// Loads the elements of a batch's keys, in their order; `nil` when every element is in `current`.
        let load: ((ArraySlice<Int64>) -> [Element])?
        /// The loaded runs of elements, the most recently loaded last: each starts at a batch's first position and
        /// holds one or more whole batches (the last batch maybe shorter).
        var runs: [Run] = []
        /// The run last read from (also in `runs`) and its first position, or every element when there is
        /// nothing to load: reading a list in order reads a run's elements one after another, each without looking
        /// for its run, which in this unspecialized code costs more than the rest of the read. Unchecked for
        /// exclusive access, which a read would otherwise pay for twice, as much as the rest of it: the storage is
        /// used from one isolation domain (the collection isn't `Sendable`), and nothing reads these while they
        /// are assigned.
        @usableFromInline @exclusivity(unchecked) var currentStart = 0
        @usableFromInline @exclusivity(unchecked) var current: [Element]
        /// The position after the last run loaded, and how many batches were loaded in order up to it (since the
        /// last load that didn't start there).
        var loadedEnd = -1
        var batchesInOrder = 0

        struct Run {
            let start: Int
            let elements: [Element]
        }

        init(keys: [Int64], batchSize: Int, load: ((ArraySlice<Int64>) -> [Element])?, loaded: [Element]) {
            self.keys = keys
            self.batchSize = batchSize
            self.load = load
            current = loaded
        }

        /// The element at `position` when it isn't in the current run: found in a kept run, or loaded with its
        /// batch (and, when the batch follows the last one loaded, the batches after it), which becomes current.
        /// Not inlined: only the read of the current run is, in the caller's code for its own element type.
        @usableFromInline func element(at position: Int) -> Element {
            guard let load else { return current[position] }
            for run in runs where run.start <= position && position < run.start + run.elements.count {
                currentStart = run.start
                current = run.elements
                return run.elements[position - run.start]
            }
            let start = position / batchSize * batchSize
            // In order: as many batches as were read in order so far, so reading ahead never loads more than
            // twice what was read; stopping before a run already kept, so a model is never loaded twice.
            let batches: Int
            if start == loadedEnd {
                batches = Swift.min(batchesInOrder, Swift.max(Self.readAheadLimit / batchSize, 1))
                batchesInOrder += batches
            } else {
                batches = 1
                batchesInOrder = 1
            }
            var end = Swift.min(start + batches * batchSize, keys.count)
            for run in runs where run.start > start { end = Swift.min(end, run.start) }
            let elements = load(keys[start..<end])
            runs.append(Run(start: start, elements: elements))
            if runs.count > FetchResultsCollection.retainedRuns { runs.removeFirst() }
            loadedEnd = end
            currentStart = start
            current = elements
            return elements[position - start]
        }

        /// The most models one query of a collection read in order loads, unless a batch is larger (what
        /// `enumerate` pages by).
        static var readAheadLimit: Int { 5000 }
    }

    /// How many loaded runs of batches are kept; older ones are released and reloaded if accessed again.
    private static var retainedRuns: Int { 4 }
    @usableFromInline let storage: Storage
    public let count: Int

    init(keys: [Int64], batchSize: Int, context: ModelContext, plan: FetchPlan) where Element: PersistentModel {
        let load = { (keys: ArraySlice<Int64>) -> [Element] in
            if keys.startIndex == 0, let batch = try? context.firstBatch(keys, of: Element.self, plan: plan) {
                return batch
            }
            let standIn = { (key: Int64) in context.standIn(Element.self, entity: plan.entity, primaryKey: key) }
            return (try? context.models(Array(keys), of: Element.self, plan: plan, missing: standIn))
                ?? keys.map(standIn)
        }
        storage = Storage(keys: keys, batchSize: batchSize, load: load, loaded: [])
        count = keys.count
    }

    init(loaded: [Element]) {
        storage = Storage(keys: [], batchSize: 1, load: nil, loaded: loaded)
        count = loaded.count
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    /// The element at `position`, loading its batch if needed. A model deleted from the store since the fetch
    /// comes back with `isDeleted == true`.
    ///
    /// Inlined, so reading the current run is specialized for the element type where it is read instead of
    /// going through the generic collection's value witnesses for every element.
    @inlinable public subscript(position: Int) -> Element {
        let storage = storage
        let offset = position &- storage.currentStart
        if offset >= 0, offset < storage.current.count { return storage.current[offset] }
        return storage.element(at: position)
    }
}

extension FetchResultsCollection where Element: PersistentModel {
    /// The models' identifiers, in order (a batched collection loads every batch to tell them).
    public var identifiers: [PersistentIdentifier] { map(\.persistentModelID) }
}
