import Testing

@testable import Strata
@testable import StrataTestFixtures

/// A reader's position in history when transactions commit out of identifier order (PostgreSQL's sequence).
@Suite("HistoryCursor: position in a store's history")
struct HistoryCursorTests {
    @Test func aGapIsReadAgainUntilItsTransactionArrives() {
        var cursor = HistoryCursor(handledThrough: 10)
        let start = ContinuousClock.now
        // 12 committed before 11.
        cursor.markHandled([12], now: start)
        #expect(!cursor.hasHandled(11))
        #expect(cursor.hasHandled(12))
        #expect(!cursor.hasHandled(through: 12))
        #expect(cursor.request.conditions == [.transaction(.greater, 10)])
        cursor.markHandled([11], now: start + .seconds(1))
        #expect(cursor.hasHandled(through: 12))
        #expect(cursor.request.conditions == [.transaction(.greater, 12)])
    }

    @Test func aGapOutlivingItsLifetimeIsTakenForARollback() {
        var cursor = HistoryCursor(handledThrough: 10)
        let start = ContinuousClock.now
        cursor.markHandled([12, 14], now: start)
        cursor.markHandled([], now: start + HistoryCursor.gapLifetime / 2)
        #expect(cursor.request.conditions == [.transaction(.greater, 10)])
        cursor.markHandled([], now: start + HistoryCursor.gapLifetime * 2)
        // Past 11 and 12; the gap at 13 is new, so it is waited for in its turn.
        #expect(cursor.request.conditions == [.transaction(.greater, 12)])
        cursor.markHandled([], now: start + HistoryCursor.gapLifetime * 4)
        #expect(cursor.request.conditions == [.transaction(.greater, 14)])
    }

    @Test func aStoreWithoutHistoryWaitsForAnEarlierTransactionThatCommitsLater() {
        // Transaction 1 took its number first and commits after 2, the first one read.
        var cursor = HistoryCursor(handledThrough: nil)
        cursor.markHandled([2])
        #expect(!cursor.hasHandled(1))
        #expect(!cursor.hasHandled(through: 2))
        #expect(cursor.request.conditions == [.transaction(.greater, 0)])
        cursor.markHandled([1])
        #expect(cursor.hasHandled(through: 2))
        #expect(cursor.request.conditions == [.transaction(.greater, 2)])
    }

    @Test func aStoreWithoutHistoryStartsAtItsFirstTransaction() {
        var cursor = HistoryCursor(handledThrough: nil)
        #expect(cursor.request.conditions.isEmpty)
        #expect(!cursor.hasHandled(through: 1))
        cursor.markHandled([1, 2])
        #expect(cursor.hasHandled(through: 2))
        cursor.restart(after: 7)
        #expect(cursor.request.conditions == [.transaction(.greater, 7)])
    }
}
