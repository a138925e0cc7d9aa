import Foundation

extension ResultsObserver: LiveChangeSubscriber {
    /// Fetches again now and publishes what changed, as after a save.
    ///
    /// Call it after changing the observer's context without saving (when autosave is off), or after changing
    /// the store in a way Strata can't see.
    public func refresh() {
        refresh(after: nil)
    }

    package func receiveStoreChanges(_ event: StoreChangeEvent) {
        refresh(after: event)
    }

    /// The descriptor actually fetched: the section title sorts first.
    var effectiveDescriptor: FetchDescriptor<Element> {
        var descriptor = descriptorStorage
        if let sectionSort, descriptor.sortBy.first?.keyPath != sectionSort.keyPath {
            descriptor.sortBy.insert(sectionSort, at: 0)
        }
        return descriptor
    }

    /// Reloads what other contexts changed, fetches, diffs against the published results and publishes.
    func refresh(after event: StoreChangeEvent?) {
        guard let entity else {
            fetchError = .unknownEntity(String(describing: Element.self))
            return
        }
        let fetched: [Element]
        do {
            if let event { try reloadModels(changedBy: event, entity: entity) }
            if let event, let outcome = try incrementalResults(after: event, entity: entity) {
                incrementalRefreshCount += 1
                fetchCount += 1
                if fetchErrorStorage != nil { fetchError = nil }
                guard case .results(let applied) = outcome else { return }
                fetched = applied
            } else {
                let matchesStore = !modelContext.hasPendingChanges(for: entity)
                fetched = try modelContext.fetch(effectiveDescriptor)
                resultsMatchStore = matchesStore
                fetchCount += 1
                if fetchErrorStorage != nil { fetchError = nil }
            }
        } catch {
            resultsMatchStore = false
            fetchError = StrataError(error) ?? .storeFailure(operation: "fetch \(entity.name)", reason: "\(error)")
            return
        }
        publish(fetched, savedUpdates: event?.updated ?? [])
    }

    /// Makes the context's registered models show what other contexts or processes saved.
    private func reloadModels(changedBy event: StoreChangeEvent, entity: Schema.Entity) throws {
        // Saves of the container's other contexts are merged by the context itself (it heard of them first).
        try modelContext.mergeChangesSavedElsewhere()
        guard event.isUnspecific || event.includesExternalChanges else { return }
        // The observed entity and the ones its predicate or sort reads through relationships.
        let entities =
            [entity]
            + watchedEntities.subtracting([entity.name]).sorted()
            .compactMap { container.schema.entity(named: $0) }
        if event.isUnspecific {
            for watched in entities { try modelContext.reloadRegisteredModels(of: watched, keys: nil) }
            return
        }
        // Left: changes made outside the container's contexts (other containers, processes, machines).
        guard event.includesExternalChanges else { return }
        let changed = event.inserted.union(event.updated).union(event.deleted)
        for watched in entities {
            let keys = changed.compactMap { identifier in
                identifier.entityName == watched.name ? identifier.primaryKey : nil
            }
            if !keys.isEmpty {
                try modelContext.reloadRegisteredModels(of: watched, keys: Set(keys), serial: event.serial)
            }
        }
    }

    /// The entities whose changes concern this observer: its own, and those its predicate or sort reads through
    /// relationships (renaming an author changes which books `$0.author?.name == "Le Guin"` matches).
    var watchedEntityNames: Set<String> {
        guard let entity else { return [] }
        // A subclass's models are results of a fetch of its superclass.
        var names = Set(entity.selfAndDescendants.map(\.name))
        if let plan = translatedPlan {
            if let condition = plan.request.condition { names.formUnion(condition.relatedEntityNames) }
            for ordering in plan.request.ordering { names.formUnion(ordering.expression.relatedEntityNames) }
        }
        return names
    }

    /// Tells the change center which entities concern this observer now.
    func updateWatchedEntities() {
        let descriptor = effectiveDescriptor
        translatedPlan = entity.flatMap { try? FetchPlan(descriptor, entity: $0) }
        incrementalRule = entity.flatMap { IncrementalRule(descriptor, plan: translatedPlan, entity: $0) }
        watchedEntities = watchedEntityNames
        guard let subscription else { return }
        container.liveChanges.update(subscription, entityNames: watchedEntities)
    }

    /// Diffs `fetched` against the published results and publishes when anything changed.
    private func publish(_ fetched: [Element], savedUpdates: Set<PersistentIdentifier>) {
        let oldIdentities = resultsStorage.map(ObjectIdentifier.init)
        let newIdentities = fetched.map(ObjectIdentifier.init)
        var versions: [ObjectIdentifier: UInt64] = [:]
        var updated = Set<ObjectIdentifier>()
        for (identity, model) in zip(newIdentities, fetched) {
            let current = model.persistentBackingData.values.version
            versions[identity] = current
            if let previous = publishedVersions[identity],
                previous != current || savedUpdates.contains(model.persistentModelID)
            {
                updated.insert(identity)
            }
        }
        publishedVersions = versions
        var changes = ResultsChangeSet(from: oldIdentities, to: newIdentities, updated: updated)
        var newSections = sectionsStorage
        if let sectionKeyPath {
            let grouped = SectionedResults(grouping: fetched, by: sectionKeyPath)
            changes.addSectionChanges(from: sectionsStorage?.sectionTitles ?? [], to: grouped.sectionTitles)
            newSections = grouped
        }
        guard !changes.isEmpty else { return }
        show(FetchResultsCollection(loaded: fetched))
        publishedKeys = Set(fetched.compactMap { $0.persistentBackingData.primaryKey })
        sections = newSections
        let snapshot = ResultsSnapshot(results: resultsStorage, changes: changes)
        streams.yield(snapshot)
        onChange?(snapshot)
    }
}
