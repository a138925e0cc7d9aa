/// A store that may keep history in a transaction type of its own: a third-party store that is
/// `HistoryProviding`, reached through its adapter.
protocol ProvidedHistorySource {
    /// The transactions `descriptor` selects, or `nil` when the store keeps no history of its own.
    func fetchProvidedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T]?
    /// Deletes the transactions `descriptor` selects; `false` when the store keeps no history of its own.
    func deleteProvidedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> Bool
}

extension PersistentStore {
    /// The store, or the first of the stores it routes to, that keeps history of its own.
    var providedHistorySource: (any ProvidedHistorySource)? {
        componentStores.lazy.compactMap { $0 as? any ProvidedHistorySource }.first
    }
}

extension DataStoreAdapter: ProvidedHistorySource {
    /// The transactions `descriptor` selects, from the store's own history when it is `HistoryProviding`; `nil`
    /// when it isn't.
    /// - Throws: `StrataError.storeFailure` when the store's transactions aren't of type `T`; the store's
    ///   `SwiftDataError` or `StrataError` as it is; another error as `StrataError.storeFailure`.
    func fetchProvidedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T]? {
        guard let provider = store as? any HistoryProviding else { return nil }
        return try locked { try fetch(descriptor, from: provider) }
    }

    /// Deletes the transactions `descriptor` selects from the store's own history; `false` when the store isn't
    /// `HistoryProviding`.
    /// - Throws: as ``fetchProvidedHistory(_:)``.
    func deleteProvidedHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> Bool {
        guard let provider = store as? any HistoryProviding else { return false }
        return try locked { try delete(descriptor, from: provider) }
    }

    private func fetch<Provider: HistoryProviding, T: HistoryTransaction>(
        _ descriptor: HistoryDescriptor<T>, from provider: Provider
    ) throws -> [T]? {
        guard let typed = descriptor as? HistoryDescriptor<Provider.HistoryType> else {
            throw wrongHistoryType(T.self, of: provider, operation: "fetch history")
        }
        do {
            return try provider.fetchHistory(typed).compactMap { $0 as? T }
        } catch {
            throw historyError(error, operation: "fetch history")
        }
    }

    private func delete<Provider: HistoryProviding, T: HistoryTransaction>(
        _ descriptor: HistoryDescriptor<T>, from provider: Provider
    ) throws -> Bool {
        guard let typed = descriptor as? HistoryDescriptor<Provider.HistoryType> else {
            throw wrongHistoryType(T.self, of: provider, operation: "delete history")
        }
        do {
            try provider.deleteHistory(typed)
        } catch {
            throw historyError(error, operation: "delete history")
        }
        return true
    }

    private func wrongHistoryType<Provider: HistoryProviding>(
        _ asked: Any.Type, of provider: Provider, operation: String
    ) -> StrataError {
        StrataError.invalidHistoryRequest(
            operation: "\(operation) in \(Store.self) \(identifier)",
            reason: "the store records its history as \(Provider.HistoryType.self), not \(asked)")
    }

    /// A history error as the app can match it: `SwiftDataError.historyTokenExpired` and Strata's errors pass.
    private func historyError(_ error: any Error, operation: String) -> any Error {
        error is SwiftDataError ? error : storeError(error, operation: operation)
    }
}
