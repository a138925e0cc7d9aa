extension PostgresConfiguration {
    /// How a container learns that another instance saved, so its live results (`ResultsObserver`,
    /// `HistoryObserver`, StrataState's `ModelState`) refresh.
    ///
    /// Either way the changes are read from the store's persistent history after the last transaction seen, so
    /// observers get the exact rows inserted, updated and deleted.
    ///
    /// ```swift
    /// // CockroachDB has no LISTEN/NOTIFY:
    /// let configuration = PostgresConfiguration(url: url, changeNotification: .polling(interval: .milliseconds(250)))
    /// ```
    public enum ChangeNotification: Sendable, Hashable {
        /// Each save sends `NOTIFY` on the store's channel with its history transaction's identifier, and a
        /// dedicated connection `LISTEN`s while anything observes (reconnecting by itself when it drops). A save
        /// reaches observers on other machines within milliseconds. An open first checks that the server keeps
        /// each connection's session, which `LISTEN` needs, and refuses a pooler in transaction mode
        /// (`StrataError.storeOpenFailed`, see the PostgreSQL article's "Poolers").
        case listen
        /// The newest history transaction is read every `interval` while anything observes, and saves send no
        /// `NOTIFY`: for PostgreSQL-compatible engines without `LISTEN`/`NOTIFY`, such as CockroachDB.
        case polling(interval: Duration)
    }
}
