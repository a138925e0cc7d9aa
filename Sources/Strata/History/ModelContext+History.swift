import Foundation

extension ModelContext {
    /// Fetches the history transactions the descriptor selects: every save of every context and process that
    /// wrote to the container's store, oldest first unless the descriptor sorts them.
    ///
    /// ```swift
    /// let descriptor = HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > lastToken })
    /// let transactions = try context.fetchHistory(descriptor)
    /// ```
    ///
    /// A custom store that is `HistoryProviding` answers with its own transaction type instead.
    ///
    /// - Throws: `SwiftDataError.historyTokenExpired` when the predicate asks for the transactions after a token
    ///   whose history was deleted (or a token of another store); `SwiftDataError.invalidTransactionFetchRequest`
    ///   when the descriptor's transaction type is not the one the store records, or the container keeps its models
    ///   in several stores; `StrataError.storeFailure` when the store fails.
    public func fetchHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T] {
        try throwingSwiftDataErrors {
            if let provided = try store.providedHistorySource?.fetchProvidedHistory(descriptor) { return provided }
            guard let typed = descriptor as? HistoryDescriptor<DefaultHistoryTransaction> else {
                throw StrataError.invalidHistoryRequest(
                    operation: "fetch history",
                    reason: "Strata's stores record \(DefaultHistoryTransaction.self), not \(T.self)")
            }
            let plan = try HistoryFetchPlan(typed, storeIdentifier: store.identifier)
            var transactions = try store.fetchHistory(plan.request).map(makeTransaction)
            if let predicate = plan.predicateInMemory {
                transactions = try transactions.filter { try predicate.evaluate($0) }
            }
            if plan.sortsInMemory { transactions.sort(using: typed.sortBy) }
            if plan.limitsInMemory, typed.fetchLimit > 0, transactions.count > typed.fetchLimit {
                transactions.removeSubrange(Int(typed.fetchLimit)...)
            }
            return transactions as? [T] ?? []
        }
    }

    /// Deletes the history transactions the descriptor selects (and their changes), e.g. everything up to a token
    /// every reader has processed: `#Predicate { $0.token <= processedToken }`. A later fetch asking for the
    /// transactions after a token older than the deleted history throws `StrataError.historyTokenExpired`.
    ///
    /// - Throws: `StrataError.readOnlyContainer`, `SwiftDataError.historyTokenExpired` (a token of another store),
    ///   `StrataError.storeFailure`.
    public func deleteHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws {
        try throwingSwiftDataErrors {
            if try store.providedHistorySource?.deleteProvidedHistory(descriptor) == true { return }
            guard let typed = descriptor as? HistoryDescriptor<DefaultHistoryTransaction> else {
                throw StrataError.invalidHistoryRequest(
                    operation: "delete history",
                    reason: "Strata's stores record \(DefaultHistoryTransaction.self), not \(T.self)")
            }
            let plan = try HistoryFetchPlan(typed, storeIdentifier: store.identifier)
            guard plan.predicateInMemory != nil || plan.sortsInMemory else {
                try store.deleteHistory(plan.request)
                return
            }
            // A predicate the store can't run: the transactions it selects are found in memory, then deleted by
            // identifier.
            for transaction in try fetchHistory(typed) {
                let identifier = transaction.transactionIdentifier
                try store.deleteHistory(StoreHistoryFetch(conditions: [.transaction(.equal, identifier)]))
            }
        }
    }

    /// A stored transaction as `DefaultHistoryTransaction`: each change typed by its entity's model class.
    private func makeTransaction(_ stored: StoredHistoryTransaction) -> DefaultHistoryTransaction {
        let storeIdentifier = store.identifier
        let changes = stored.changes.compactMap { change -> HistoryChange? in
            guard let entity = store.schema.entity(named: change.entityName) else { return nil }
            let identifier = PersistentIdentifier(
                entityName: entity.name, storeIdentifier: storeIdentifier, key: .permanent(change.primaryKey))
            return Self.historyChange(
                change, entity: entity, identifier: identifier, transaction: stored.identifier,
                modelType: entity.modelType)
        }
        return DefaultHistoryTransaction(
            storeIdentifier: storeIdentifier, bundleIdentifier: stored.bundleIdentifier,
            processIdentifier: stored.processIdentifier,
            transactionIdentifier: stored.identifier, author: stored.author, changes: changes,
            timestamp: stored.timestamp)
    }

    private static func historyChange<Model: PersistentModel>(
        _ change: StoredHistoryChange, entity: Schema.Entity, identifier: PersistentIdentifier, transaction: Int64,
        modelType: Model.Type
    ) -> HistoryChange {
        switch change.kind {
        case .insert:
            return .insert(
                DefaultHistoryInsert<Model>(transaction: transaction, position: change.position, identifier: identifier)
            )
        case .update(let names):
            let keyPaths = names.compactMap { entity.property(named: $0)?.anyKeyPath as? PartialKeyPath<Model> }
            return .update(
                DefaultHistoryUpdate<Model>(
                    transaction: transaction, position: change.position, identifier: identifier,
                    updatedAttributes: keyPaths))
        case .delete(let values):
            let preserved = entity.preservedPropertyIndexes.compactMap { index -> HistoryTombstone<Model>.Element? in
                let property = entity.persistentProperties[index]
                guard let stored = values[property.name], let keyPath = property.anyKeyPath as? PartialKeyPath<Model>,
                    let value = property.decodeAny(stored)
                else { return nil }
                return (keyPath.assumedSendable, assumedSendable(value))
            }
            return .delete(
                DefaultHistoryDelete<Model>(
                    transaction: transaction, position: change.position, identifier: identifier,
                    tombstone: HistoryTombstone(values: preserved)))
        }
    }
}

/// How a `HistoryDescriptor` runs: the store request, and what is left to do in memory.
struct HistoryFetchPlan {
    var request: StoreHistoryFetch
    /// The predicate, when the store's conditions only select a superset of its transactions.
    var predicateInMemory: Predicate<DefaultHistoryTransaction>?
    /// Whether the sort descriptors are applied in memory (anything but one sort by token, transaction identifier
    /// or timestamp).
    var sortsInMemory = false
    var limitsInMemory: Bool { predicateInMemory != nil || sortsInMemory }

    init(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>, storeIdentifier: String) throws {
        request = StoreHistoryFetch()
        if let predicate = descriptor.predicate {
            let translation = try HistoryPredicateTranslator.translate(predicate, storeIdentifier: storeIdentifier)
            request.conditions = translation.conditions
            if !translation.isComplete { predicateInMemory = predicate }
        }
        if let sort = descriptor.sortBy.first {
            let ascending = sort.order == .forward
            let keyPath: AnyKeyPath? = sort.keyPath
            if keyPath == \DefaultHistoryTransaction.token
                || keyPath == \DefaultHistoryTransaction.transactionIdentifier
            {
                request.order = .transaction(ascending: ascending)
            } else if keyPath == \DefaultHistoryTransaction.timestamp {
                request.order = .timestamp(ascending: ascending)
            } else {
                sortsInMemory = true
            }
            if descriptor.sortBy.count > 1 { sortsInMemory = true }
        }
        if !limitsInMemory, descriptor.fetchLimit > 0 {
            request.limit = Int(clamping: descriptor.fetchLimit)
        }
    }
}
