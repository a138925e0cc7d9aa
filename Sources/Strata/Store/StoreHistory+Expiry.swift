import Foundation

/// What deleted history a store remembers, so a token is reported as expired exactly when a reader would miss
/// something: kept in `strata_metadata`, one key per author whose transactions were deleted.
///
/// A request reading the transactions after a token expires when a deleted transaction newer than the token is one
/// the request would have returned: its author passes the request's author conditions. Deleting transactions older
/// than the token, or newer ones of authors the request leaves out, expires nothing.
package struct HistoryDeletionMarks: Sendable, Equatable {
    /// Every transaction through this one is gone, whatever its author (0: none): an erase, and stores whose
    /// deletions were recorded before they were recorded by author.
    package var allAuthorsThrough: Int64 = 0
    /// The newest deleted transaction of each author (the `nil` key: transactions without an author).
    package var newestDeleted: [String?: Int64] = [:]

    package init(allAuthorsThrough: Int64 = 0, newestDeleted: [String?: Int64] = [:]) {
        self.allAuthorsThrough = allAuthorsThrough
        self.newestDeleted = newestDeleted
    }

    /// The marks the rows of ``HistoryTables/deletionMarksQuery`` (key, value) record; other rows are ignored.
    package init(rows: [[StoredValue]]) {
        for row in rows where row.count == 2 {
            guard case .text(let key) = row[0], case .text(let text) = row[1], let through = Int64(text) else {
                continue
            }
            if key == HistoryTables.deletedThroughKey {
                allAuthorsThrough = max(allAuthorsThrough, through)
            } else if key == HistoryTables.deletionKey(author: nil) {
                newestDeleted[nil] = max(newestDeleted[nil] ?? 0, through)
            } else if key.hasPrefix(HistoryTables.authorDeletionPrefix) {
                let author = String(key.dropFirst(HistoryTables.authorDeletionPrefix.count))
                newestDeleted[author] = max(newestDeleted[author] ?? 0, through)
            }
        }
    }
}

extension StoreHistoryFetch {
    /// Throws `historyTokenExpired` when the request reads the transactions after one (``readsAfterTransaction``)
    /// and a transaction after it that the request would have returned was deleted (`marks`).
    package func checkNotExpired(_ marks: HistoryDeletionMarks, storeIdentifier: String) throws {
        guard let after = readsAfterTransaction, !conditions.contains(.never) else { return }
        if marks.allAuthorsThrough > after {
            throw StrataError.historyTokenExpired(
                storeIdentifier: storeIdentifier, transaction: after,
                reason: "the history through transaction \(marks.allAuthorsThrough) was deleted")
        }
        let missed = marks.newestDeleted.filter { $0.value > after && admits(author: $0.key) }
        guard let (author, newest) = missed.max(by: { $0.value < $1.value }) else { return }
        let whose = author.map { "of author \"\($0)\"" } ?? "without an author"
        throw StrataError.historyTokenExpired(
            storeIdentifier: storeIdentifier, transaction: after,
            reason: "transaction \(newest) \(whose), which this request would return, was deleted")
    }

    /// Whether the request's author conditions let a transaction of `author` through (`nil`: no author).
    func admits(author: String?) -> Bool {
        conditions.allSatisfy { condition in
            guard case .author(let equal, let name) = condition else { return true }
            return (author == name) == equal
        }
    }
}

extension HistoryTables {
    /// The prefix of the `strata_metadata` keys naming the newest deleted transaction of one author.
    static let authorDeletionPrefix = deletedThroughKey + ":"

    /// The `strata_metadata` key holding the newest deleted transaction of `author` (`nil`: without an author).
    static func deletionKey(author: String?) -> String {
        author.map { authorDeletionPrefix + $0 } ?? deletedThroughKey + ".noAuthor"
    }

    /// Reads the rows ``HistoryDeletionMarks/init(rows:)`` reads: every `strata_metadata` key about deleted history.
    package static let deletionMarksQuery: SQLFragment =
        "SELECT key, value FROM \(identifier: StoreLayout.metadataTable) "
        + "WHERE substr(key, 1, \(sql: String(deletedThroughKey.count))) = \(bind: .text(deletedThroughKey))"

    /// Deletes the transactions `request` selects, with their tombstones and changes, and records, for each author
    /// among them, the newest deleted: `query` and `run` run a statement in the caller's transaction.
    /// - Returns: the newest transaction deleted (`nil`: none).
    @discardableResult
    package static func delete(
        _ request: StoreHistoryFetch, query: (SQLFragment) throws -> [[StoredValue]],
        run: (SQLFragment) throws -> Void
    ) throws -> Int64? {
        let byAuthor = try query(
            selectedAuthors(request.selection(columns: "\(identifier: "id"), \(identifier: "author")", ordered: false)))
        var newest: [String?: Int64] = [:]
        var range: ClosedRange<Int64>?
        for row in byAuthor where row.count == 3 {
            guard case .integer(let first) = row[1], case .integer(let last) = row[2] else { continue }
            let author: String? = if case .text(let name) = row[0] { name } else { nil }
            newest[author] = last
            range = range.map { min($0.lowerBound, first)...max($0.upperBound, last) } ?? first...last
        }
        guard let range else { return nil }
        let selection = request.selection(columns: "\(identifier: "id")", ordered: false)
        for deletion in deletions(of: selection, from: range.lowerBound, through: range.upperBound) {
            try run(deletion)
        }
        for (author, through) in newest {
            try run(recordDeleted(key: deletionKey(author: author), through: through))
        }
        return range.upperBound
    }

    /// Each author among the transactions `selection` (a `SELECT id, author …`) selects, with the oldest and
    /// newest of their identifiers.
    ///
    /// The grouping makes PostgreSQL read the selected rows (through the index by time for `timestamp < date`)
    /// rather than answer `min` and `max` by walking the primary key from each end until a row matches.
    package static func selectedAuthors(_ selection: SQLFragment) -> SQLFragment {
        "SELECT \(identifier: "author"), min(\(identifier: "id")), max(\(identifier: "id")) FROM (\(selection)) AS selected "
            + "GROUP BY \(identifier: "author")"
    }

    /// Records in `strata_metadata` that the history of every author through `transaction` is gone (an erase).
    package static func recordDeleted(through transaction: Int64) -> SQLFragment {
        recordDeleted(key: deletedThroughKey, through: transaction)
    }

    /// Records in `strata_metadata` that `transaction` was given and deleted (``issuedThroughKey``): no later
    /// transaction takes its identifier or an older one.
    static func recordIssued(through transaction: Int64) -> SQLFragment {
        recordDeleted(key: issuedThroughKey, through: transaction)
    }

    /// Raises `key`'s transaction to `transaction`, unless it holds a newer one: deleting older history later
    /// doesn't make newer tokens valid again.
    private static func recordDeleted(key: String, through transaction: Int64) -> SQLFragment {
        let metadata = StoreMetadata.table
        return StoreMetadata.insert(key, String(transaction))
            + " ON CONFLICT (key) DO UPDATE SET value = CASE WHEN CAST(excluded.value AS BIGINT) > CAST(\(metadata).value AS BIGINT) "
            + "THEN excluded.value ELSE \(metadata).value END"
    }
}
