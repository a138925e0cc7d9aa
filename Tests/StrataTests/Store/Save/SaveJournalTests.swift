import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// `SaveJournal`: the history rows a save derives from what it wrote.
@Suite struct SaveJournalTests {
    private let trip = Schema([HistoryTrip.self, HistoryPlanner.self]).entity(for: HistoryTrip.self)!

    private func changes(of rows: [HistoryChangeRow]) -> [String] {
        rows.flatMap { row in
            HistoryKeyList.keys(first: row.row, count: row.count, list: row.keys).enumerated().map { offset, key in
                "\(row.position + Int64(offset)) \(row.kind) \(key) \(row.attributes ?? "")"
            }
        }
    }

    @Test("Updates of one attribute list are one row wherever they are, and every change keeps a position of its own")
    func updatesOfOneAttributeListAreOneRow() {
        var journal = SaveJournal()
        for row in Int64(1)...6 { journal.updated(trip, row: row, attributes: row % 3 == 0 ? "planner" : "nights") }
        let (rows, _) = journal.historyRows()
        #expect(rows.count == 2)
        #expect(
            changes(of: rows) == [
                "0 update 1 nights", "1 update 2 nights", "2 update 4 nights", "3 update 5 nights",
                "4 update 3 planner", "5 update 6 planner",
            ])
    }

    @Test("A preserved value follows its deletion when updates after the deletion join a row before it")
    func preservedValuesFollowTheirDeletions() {
        var journal = SaveJournal()
        journal.updated(trip, row: 1, attributes: "nights")
        journal.deleted(trip, row: 2, preserved: [.text("Oslo")])
        journal.updated(trip, row: 3, attributes: "planner")
        journal.deleted(trip, row: 4, preserved: [.text("Rome")])
        journal.updated(trip, row: 5, attributes: "nights")
        journal.deleted(trip, rows: [6, 7])
        journal.inserted(trip, row: 8)
        let (rows, tombstones) = journal.historyRows()
        let listed = changes(of: rows)
        #expect(
            listed == [
                "0 update 1 nights", "1 update 5 nights", "2 delete 2 ", "3 update 3 planner", "4 delete 4 ",
                "5 delete 6 ", "6 delete 7 ", "7 insert 8 ",
            ])
        // Each preserved value sits at the position of the row it was deleted with.
        #expect(
            tombstones.map { "\($0.position) \($0.name) \($0.value)" } == [
                "2 name 'Oslo'", "4 name 'Rome'",
            ])
    }

    @Test("A save of one run of changes is one row from position 0, its preserved values at their deletions")
    func oneRunIsOneRow() {
        #expect(SaveJournal().historyRows().changes.isEmpty)
        var journal = SaveJournal()
        journal.deleted(trip, row: 2, preserved: [.text("Oslo")])
        journal.deleted(trip, row: 3, preserved: [.text("Rome")])
        let (rows, tombstones) = journal.historyRows()
        #expect(rows.count == 1)
        #expect(changes(of: rows) == ["0 delete 2 ", "1 delete 3 "])
        #expect(tombstones.map { "\($0.position) \($0.name) \($0.value)" } == ["0 name 'Oslo'", "1 name 'Rome'"])
    }
}
