extension AggregateObserver: LiveChangeSubscriber {
    /// Computes the groups again now, and publishes them when they changed.
    ///
    /// Call it after changing the store in a way Strata can't see.
    public func refresh() {
        refresh(after: nil)
    }

    package func receiveStoreChanges(_ event: StoreChangeEvent) {
        refresh(after: event)
    }

    /// Runs the aggregate and publishes its groups, unless the store answered the rows already published.
    ///
    /// The change center calls it only for saves touching a watched entity, so `event` needs no reading here: the
    /// store's answer after it is the whole truth, whichever rows changed.
    func refresh(after event: StoreChangeEvent?) {
        let groups: [AggregateResult<Key, Value>]
        let rows: [[StoredValue]]
        do {
            let answer = try modelContext.aggregateRows(descriptorStorage)
            fetchCount += 1
            rows = answer.rows
            if let publishedRows, Self.same(publishedRows, rows) {
                if fetchErrorStorage != nil { fetchError = nil }
                return
            }
            groups = try answer.plan.results(rows, of: descriptorStorage)
        } catch {
            fetchError = StrataError(error) ?? .storeFailure(operation: "aggregate \(entity.name)", reason: "\(error)")
            return
        }
        if fetchErrorStorage != nil { fetchError = nil }
        publishedRows = rows
        results = groups
        streams.yield(groups)
        onChange?(groups)
    }

    /// The entities whose saves concern this observer: the aggregated one and its subclasses, and those reached
    /// through its predicate, group keys and aggregates (with their subclasses, whose saves name them).
    var watchedEntityNames: Set<String> {
        var names = Set(entity.selfAndDescendants.map(\.name))
        guard let plan = try? AggregatePlan(descriptorStorage, entity: entity) else { return names }
        for name in plan.request.relatedEntityNames {
            guard let related = container.schema.entity(named: name) else { continue }
            names.formUnion(related.selfAndDescendants.map(\.name))
        }
        return names
    }

    /// Tells the change center which entities concern this observer now.
    func updateWatchedEntities() {
        guard let subscription else { return }
        container.liveChanges.update(subscription, entityNames: watchedEntityNames)
    }

    /// Whether two answers of the store are the same groups: equal values, a NaN equal to a NaN.
    private static func same(_ old: [[StoredValue]], _ new: [[StoredValue]]) -> Bool {
        old.count == new.count
            && zip(old, new).allSatisfy { oldRow, newRow in
                oldRow.count == newRow.count
                    && zip(oldRow, newRow).allSatisfy { oldValue, newValue in
                        if case .real(let a) = oldValue, case .real(let b) = newValue {
                            return a.bitPattern == b.bitPattern
                        }
                        return oldValue == newValue
                    }
            }
    }
}
