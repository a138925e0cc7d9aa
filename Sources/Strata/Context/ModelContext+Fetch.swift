import Foundation

extension ModelContext {
    /// Fetches the models a descriptor describes.
    ///
    /// The predicate, sort, limit and offset run in the store as SQL. With `includePendingChanges` (the default),
    /// unsaved inserts that match are included, deleted models are left out, and changed models are judged by
    /// their current values.
    ///
    /// ```swift
    /// let books = try context.fetch(FetchDescriptor<Book>(sortBy: [SortDescriptor(\.title)]))
    /// ```
    /// - Throws: `SwiftDataError.unsupportedPredicate` / `.unsupportedSortDescriptor` (their `underlyingError`
    ///   says why), `StrataError.unknownEntity`, `StrataError.invalidStoredValue`, or `StrataError.storeFailure`.
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        try throwingSwiftDataErrors {
            try mergeChangesSavedElsewhere()
            let plan = try fetchPlan(for: descriptor)
            let results = try fetchWithoutPrefetching(descriptor, plan: plan)
            if !descriptor.relationshipKeyPathsForPrefetching.isEmpty {
                try prefetch(descriptor.relationshipKeyPathsForPrefetching, for: results, entity: plan.entity)
            }
            return results
        }
    }

    private func fetchWithoutPrefetching<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, plan: FetchPlan
    ) throws -> [T] {
        guard descriptor.includePendingChanges, hasPendingChanges(for: plan.entity) else {
            return try models(plan.request)
        }
        return try fetchMergingPendingChanges(descriptor, plan: plan)
    }

    /// Counts the models a descriptor describes, in the store; with pending changes, the store's count is corrected
    /// by the changed, deleted and inserted models, without reading rows.
    ///
    /// - Throws: the errors of `fetch(_:)`.
    public func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        try throwingSwiftDataErrors {
            try mergeChangesSavedElsewhere()
            let plan = try fetchPlan(for: descriptor)
            guard descriptor.includePendingChanges, hasPendingChanges(for: plan.entity) else {
                var request = plan.request
                request.ordering = []
                return try store.count(request)
            }
            return try countMergingPendingChanges(descriptor, plan: plan)
        }
    }

    /// The identifiers of the models a descriptor describes, without loading the models.
    ///
    /// - Throws: the errors of `fetch(_:)`.
    public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [PersistentIdentifier]
    {
        try throwingSwiftDataErrors {
            try mergeChangesSavedElsewhere()
            let plan = try fetchPlan(for: descriptor)
            if descriptor.includePendingChanges, hasPendingChanges(for: plan.entity) {
                return try fetch(descriptor).map(\.persistentModelID)
            }
            var request = plan.request
            request.columns = nil
            return try identifiers(of: request)
        }
    }

    /// The identifiers of the rows `request` (with no columns) reads. In a fetch of a model with subclasses, each
    /// names its row's own entity, as the row's model's does.
    private func identifiers(of request: StoreFetch) throws -> [PersistentIdentifier] {
        let storeIdentifier = store.storeIdentifier(for: request.entity)
        guard request.readsEntityColumn else {
            return try store.fetchKeys(request).map {
                PersistentIdentifier(
                    entityName: request.entity.name, storeIdentifier: storeIdentifier, key: .permanent($0))
            }
        }
        var identifiers: [PersistentIdentifier] = []
        try store.fetch(request) { row in
            let entity = try RowMaterializer.hierarchyEntity(of: row, request: request)
            identifiers.append(
                PersistentIdentifier(
                    entityName: entity.name, storeIdentifier: storeIdentifier, key: .permanent(row.int64(at: 0))))
        }
        return identifiers
    }

    /// The model with an identifier, if it is registered in this context.
    public func registeredModel<T: PersistentModel>(for identifier: PersistentIdentifier) -> T? {
        let identifier = permanentIdentifier(for: identifier)
        guard belongsToStore(identifier) else { return nil }
        if let key = identifier.primaryKey, let entity = store.schema.entity(named: identifier.entityName) {
            return registry.model(key, of: entity) as? T
        }
        return (insertedModels.first { $0.persistentModelID == identifier }) as? T
    }

    /// The model with an identifier: the registered one, or one loaded from the store.
    ///
    /// When no stored model has the identifier, the result is a model whose `isDeleted` is `true`; reading its
    /// properties is not allowed. Use `existingModel(for:)` to get an error instead.
    public func model(for identifier: PersistentIdentifier) -> any PersistentModel {
        if let model = try? existingAnyModel(for: identifier) { return model }
        let entity = store.schema.entity(named: identifier.entityName) ?? store.schema.entities[0]
        let placeholder = standIn(entity.modelType, entity: entity, primaryKey: identifier.primaryKey ?? 0)
        if identifier.isTemporary {
            // It names the identifier it was asked for, not a row.
            placeholder.persistentBackingData.primaryKey = nil
            placeholder.persistentBackingData.adoptTemporaryIdentifier(identifier)
        }
        return placeholder
    }

    /// `descriptor` translated for the store, the temporary identifiers it captured of models this context has
    /// saved since naming their rows.
    func fetchPlan<T: PersistentModel>(for descriptor: FetchDescriptor<T>) throws -> FetchPlan {
        try FetchPlan(descriptor, entity: entity(for: T.self), permanentIdentifiers: permanentIdentifiers)
    }

    /// The identifier a model saved by this context has now, for the temporary one it had before its save (an
    /// identifier an app captured right after the insert); any other identifier as it is.
    func permanentIdentifier(for identifier: PersistentIdentifier) -> PersistentIdentifier {
        guard identifier.isTemporary else { return identifier }
        return permanentIdentifiers[identifier] ?? identifier
    }

    /// The model with an identifier, loaded from the store when not registered.
    ///
    /// - Throws: `StrataError.modelNotInContext` when no stored model has the identifier (or it is of another
    ///   class), or the errors of `fetch(_:)`.
    public func existingModel<T: PersistentModel>(for identifier: PersistentIdentifier) throws -> T {
        try throwingSwiftDataErrors {
            guard let model = try existingAnyModel(for: identifier) as? T else {
                throw StrataError.modelNotInContext(identifier)
            }
            return model
        }
    }

    private func existingAnyModel(for identifier: PersistentIdentifier) throws -> any PersistentModel {
        let identifier = permanentIdentifier(for: identifier)
        guard let entity = store.schema.entity(named: identifier.entityName) else {
            throw StrataError.unknownEntity(identifier.entityName)
        }
        guard belongsToStore(identifier) else { throw StrataError.modelNotInContext(identifier) }
        try mergeChangesSavedElsewhere()
        if let key = identifier.primaryKey, let model = registry.model(key, of: entity) { return model }
        if let model = insertedModels.first(where: { $0.persistentModelID == identifier }) { return model }
        guard let key = identifier.primaryKey else { throw StrataError.modelNotInContext(identifier) }
        let request = StoreFetch(
            entity: entity, columns: entity.columnPropertyIndexes,
            condition: .equal(.column(StoreLayout.primaryKeyColumn), .value(.integer(key))))
        guard let model = try anyModels(request).first else { throw StrataError.modelNotInContext(identifier) }
        return model
    }

    /// Whether an identifier can name a row of this context's store: temporary identifiers have no store yet, and
    /// a row number from another store names a different row here.
    private func belongsToStore(_ identifier: PersistentIdentifier) -> Bool {
        guard let owner = identifier.storeIdentifier, owner != store.identifier else { return true }
        // A container over several stores: a model of any of them.
        return store.componentStores.contains { $0.identifier == owner }
    }

    /// A stand-in for a row that is gone: `isDeleted` is `true` and its properties read as empty values.
    func standIn<T: PersistentModel>(_ type: T.Type, entity: Schema.Entity, primaryKey: Int64) -> T {
        let data = ModelBackingData.make(primaryKey: primaryKey, entity: entity, store: store, context: nil)
        data.state = .deletedAndSaved
        data.isLookupPlaceholder = true
        return T(backingData: data)
    }

    // MARK: - Rows to models

    /// Whether unsaved changes could change the results of a fetch of `entity`.
    func hasPendingChanges(for entity: Schema.Entity) -> Bool {
        // Every fetch asks this first: the pending changes it would merge are gone if the store was erased.
        if store.eraseCount != seenEraseCount { forgetErasedModels() }
        let type = ObjectIdentifier(entity.modelType)
        let hasSubentities = !entity.childEntities.isEmpty
        // A fetch of a model with subclasses reads their models too.
        func isEntity(_ model: any PersistentModel) -> Bool {
            ObjectIdentifier(Swift.type(of: model)) == type
                || (hasSubentities && isClass(Swift.type(of: model), kindOf: entity.modelType))
        }
        return insertedModels.contains(where: isEntity) || changedModels.values.contains(where: isEntity)
            || deletedModels.values.contains(where: isEntity)
            || pendingBatchDeletes.contains { $0.entity.identityKey == entity.identityKey }
    }

    /// The models of the rows `request` reads; `foundRegistered` is called with the key of each row whose model
    /// was registered before the fetch.
    /// `each`, when given, is called with every model as it is made or found, in the results' order.
    func models<T: PersistentModel>(
        _ request: StoreFetch, foundRegistered: ((Int64) -> Void)? = nil,
        each: ((any PersistentModel) -> Void)? = nil
    ) throws -> [T] {
        guard request.entity.modelType == T.self else {
            // A request for another class than `T` (not made by `fetch`): models of other classes are left out.
            return try anyModels(request).compactMap { $0 as? T }
        }
        // A limited fetch (a page of `enumerate`, a `fetchLimit`) gets its room at once instead of growing to it.
        let collector = ModelCollector(capacity: request.limit.map { Swift.min($0, Self.reservedRowsLimit) } ?? 16)
        try materialize(request, foundRegistered: foundRegistered) { model in
            collector.append(model)
            each?(model)
        }
        // Every model of the entity is a `T` (checked above).
        return collector.take(as: T.self)
    }

    /// Appends the models of the rows `request` reads to `page`, as ``models(_:foundRegistered:each:)`` returns
    /// them, and makes them with the room `scratch` keeps from one call to the next: `enumerate`'s pages, each the
    /// size of the last, allocate no list of their own.
    func appendModels<T: PersistentModel>(
        _ request: StoreFetch, as _: T.Type, to page: ModelCollector, reusing scratch: FetchScratch,
        foundRegistered: ((Int64) -> Void)? = nil
    ) throws {
        guard request.entity.modelType == T.self else {
            for model in try anyModels(request) where model is T { page.append(model) }
            return
        }
        try materialize(request, reusing: scratch, foundRegistered: foundRegistered) { page.append($0) }
    }

    /// The most rows a limited fetch reserves room for up front; a larger limit grows past it only if the rows
    /// are there.
    static let reservedRowsLimit = 10_000

    func anyModels(_ request: StoreFetch) throws -> [any PersistentModel] {
        var results: [any PersistentModel] = []
        try materialize(request) { results.append($0) }
        return results
    }

    /// Turns each fetched row into its model: the registered one when the row is already in the identity map
    /// (a fault among them filled from its row), otherwise a new model over the row's checked values
    /// (`RowMaterializer`).
    private func materialize(
        _ request: StoreFetch, reusing scratch: FetchScratch? = nil, foundRegistered: ((Int64) -> Void)? = nil,
        _ body: (any PersistentModel) -> Void
    ) throws {
        if store.eraseCount != seenEraseCount { forgetErasedModels() }
        try checkContainerIsAlive()
        let entity = request.entity
        let entityKey = entity.identityKey
        let reservedRows = request.limit.map { Swift.min($0, Self.reservedRowsLimit) }
        var rows = RowMaterializer(
            request, store: store, contextReference: modelReference, reservedRows: scratch == nil ? reservedRows : nil)
        if let scratch {
            // The list the previous call emptied, with its room; given back once the models are registered.
            swap(&rows.made, &scratch.made)
            if let reservedRows { rows.made.reserveCapacity(reservedRows) }
        }
        // Taken out while rows are added, so the map is not copied on write.
        var registered = registry.takeMap(of: entityKey)
        var isRegistered = false
        func register() {
            guard !isRegistered else { return }
            isRegistered = true
            // Noted before the models move: the next read of a relationship loads it for them too.
            let owners = entity.relationshipInfos.isEmpty ? [] : rows.filledFaults + rows.made.map(\.key)
            if rows.leavesPropertiesOut {
                notePartialModels(rows.made.lazy.map { ($0.key, $0.model.persistentBackingData) })
            }
            // Moved, not copied: retaining each model would be a cache miss by now.
            registered.insert(movingFrom: &rows.made)
            if let scratch { swap(&rows.made, &scratch.made) }
            registry.restoreMap(registered, of: entityKey)
            noteRegisteredOwners(
                owners, of: entity,
                targetKeys: Dictionary(uniqueKeysWithValues: zip(rows.foreignKeyIndexes, rows.targetKeys)))
        }
        defer { register() }
        // With `makesModelsAfterReading`, the rows whose models are made after the store's read.
        var rowsRead: [RowRead] = []
        // Rows are registered only after the last one, so a map empty now has no row of this fetch to look up.
        let lookUpRows = !registered.isEmpty
        // Read once, not from the captured materializer at every row.
        let makesModelsAfterReading = rows.makesModelsAfterReading
        let readsEntity = rows.readsEntity
        try store.fetch(request) { row in
            let key = row.int64(at: 0)
            if lookUpRows, let model = registered[key] {
                foundRegistered?(key)
                try rows.fillFault(model.persistentBackingData, key: key, from: row)
                if makesModelsAfterReading { rowsRead.append(.registered(model)) } else { body(model) }
                return
            }
            // A row of a subentity is a model of its own class. Not retained: the fetched entity holds its
            // subentities, and the request holds it, for the whole fetch. Chosen in two branches and used as a
            // guaranteed reference: a choice in one expression, or an `unowned(unsafe)` local, would still retain
            // and release the fetched entity for every row.
            let rowEntityReference: Unmanaged<Schema.Entity>
            if readsEntity {
                rowEntityReference = .passUnretained(try RowMaterializer.hierarchyEntity(of: row, request: request))
            } else {
                rowEntityReference = .passUnretained(entity)
            }
            try rowEntityReference._withUnsafeGuaranteedRef { rowEntity in
                let data = try rows.newBackingData(key: key, entity: rowEntity, from: row)
                if makesModelsAfterReading {
                    rowsRead.append(.loaded(key: key, entity: rowEntity, data: data))
                    return
                }
                let model = ModelBackingData.makeModel(rowEntity.modelType, adopting: data)
                body(model)
                // Appended last, so the list takes the model's reference instead of retaining it.
                rows.made.append((key, model))
            }
        }
        guard makesModelsAfterReading else { return }
        // The models made below may fetch (their `let` relationships), this entity's rows included: the identity
        // map is back in place first, and each model is registered as soon as it is made.
        register()
        var madeKeys: [Int64] = []
        var partialModels: [(key: Int64, data: ModelBackingData)] = []
        defer { notePartialModels(partialModels) }
        for row in rowsRead {
            switch row {
            case .registered(let model):
                body(model)
            case .loaded(let key, let rowEntity, let data):
                // A model made earlier in this loop may have loaded this row already.
                if let model = registry[entityKey, key] {
                    body(model)
                    continue
                }
                let model = ModelBackingData.makeModel(rowEntity.modelType, adopting: data)
                registry.register(model, for: key, of: entityKey)
                madeKeys.append(key)
                if data.unloadedProperties != nil { partialModels.append((key, data)) }
                body(model)
            }
        }
        noteRegisteredOwners(madeKeys, of: entity)
    }

    /// A row read by a fetch whose models are made after the store's read.
    private enum RowRead {
        /// The row's model was registered already.
        case registered(any PersistentModel)
        /// The row's values, read for a new model of `entity`.
        case loaded(key: Int64, entity: Schema.Entity, data: ModelBackingData)
    }
}
