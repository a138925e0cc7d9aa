import Foundation
import SwiftData
import Testing

/// Identified by a code of its own, as models imported from a service are: `id` hides `PersistentModel`'s.
@Model final class LedgerAccount {
    var id: String
    init(id: String) { self.id = id }
}

@Model final class LedgerCategory {
    var id: String
    init(id: String) { self.id = id }
}

@Model final class LedgerEntry {
    var date: Date
    var category: LedgerCategory?
    var account: LedgerAccount?
    init(date: Date, category: LedgerCategory?, account: LedgerAccount?) {
        self.date = date
        self.category = category
        self.account = account
    }
}

/// A budget filter as a finance app writes it: nested `if`s over optional chains and captured values. With an extra
/// `build_Arg` overload in the way, the type checker gave up on it ("unable to type-check this expression in
/// reasonable time"); this file compiling is the regression test, the test checks what it selects.
@Suite struct NestedConditionPredicateTests {
    static func budgetFilter(
        from start: Date, to end: Date, onlyCategory: Bool, categoryCode: String?, accountCode: String?
    ) -> Predicate<LedgerEntry> {
        #Predicate<LedgerEntry> { entry in
            if (start...end).contains(entry.date) {
                if onlyCategory {
                    if entry.category?.id == categoryCode {
                        return entry.account?.id == accountCode
                    } else {
                        return false
                    }
                } else {
                    return entry.account?.id == accountCode
                }
            } else {
                return false
            }
        }
    }

    @Test(arguments: StoreKind.all) func aNestedBudgetFilterCompilesAndRunsInTheStore(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, LedgerEntry.self, LedgerAccount.self, LedgerCategory.self)
        let context = ModelContext(container)
        let (cash, card) = (LedgerAccount(id: "cash"), LedgerAccount(id: "card"))
        let (food, fuel) = (LedgerCategory(id: "food"), LedgerCategory(id: "fuel"))
        let day: TimeInterval = 86_400
        let start = Date(timeIntervalSinceReferenceDate: 10 * day)
        for (offset, category, account) in [(11.0, food, cash), (12, fuel, cash), (13, food, card), (30, food, cash)] {
            context.insert(
                LedgerEntry(
                    date: Date(timeIntervalSinceReferenceDate: offset * day), category: category, account: account))
        }
        try context.save()
        let end = start.addingTimeInterval(10 * day)
        func days(_ predicate: Predicate<LedgerEntry>) throws -> [Double] {
            try ModelContext(container).fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.date)]))
                .map { $0.date.timeIntervalSinceReferenceDate / day }
        }
        let foodPaidCash = Self.budgetFilter(
            from: start, to: end, onlyCategory: true, categoryCode: "food", accountCode: "cash")
        #expect(try days(foodPaidCash) == [11])
        let anyPaidCash = Self.budgetFilter(
            from: start, to: end, onlyCategory: false, categoryCode: nil, accountCode: "cash")
        #expect(try days(anyPaidCash) == [11, 12])
    }
}
