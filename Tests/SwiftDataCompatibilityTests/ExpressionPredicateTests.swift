import Foundation
import SwiftData
import Testing

@Model final class ExpressionRecipe {
    var title: String
    var minutes: Int
    var cuisine: String?

    init(title: String, minutes: Int, cuisine: String? = nil) {
        self.title = title
        self.minutes = minutes
        self.cuisine = cuisine
    }
}

/// A search composed of Foundation `#Expression`s, as apps build one filter per search field: each expression is
/// applied inside `#Predicate` with `evaluate(_:)`, which the `SwiftData` module's `#Predicate` accepts as Apple's
/// does (Foundation's own macro on Linux refuses it).
@Suite struct ExpressionPredicateTests {
    let quick = #Expression<ExpressionRecipe, Bool> { $0.minutes <= 20 }
    let italian = #Expression<ExpressionRecipe, Bool> { $0.cuisine == "Italian" }
    let titleLength = #Expression<ExpressionRecipe, Int> { $0.title.count }

    private func seeded(_ kind: StoreKind) throws -> ModelContainer {
        let container = try freshContainer(kind, ExpressionRecipe.self)
        let context = ModelContext(container)
        context.insert(ExpressionRecipe(title: "Cacio e pepe", minutes: 15, cuisine: "Italian"))
        context.insert(ExpressionRecipe(title: "Ragù", minutes: 180, cuisine: "Italian"))
        context.insert(ExpressionRecipe(title: "Omelette", minutes: 10))
        context.insert(ExpressionRecipe(title: "Pho", minutes: 240, cuisine: "Vietnamese"))
        try context.save()
        return container
    }

    @Test(arguments: StoreKind.all) func anExpressionIsEvaluatedInTheStore(_ kind: StoreKind) throws {
        let container = try seeded(kind)
        let quick = quick
        let predicate = #Predicate<ExpressionRecipe> { recipe in quick.evaluate(recipe) }
        let titles = try ModelContext(container).fetch(
            FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.title)])
        )
        .map(\.title)
        #expect(titles == ["Cacio e pepe", "Omelette"])
        #expect(try predicate.evaluate(ExpressionRecipe(title: "Toast", minutes: 3)))
    }

    @Test(arguments: StoreKind.all) func expressionsComposeWithEachOtherAndWithConditions(_ kind: StoreKind) throws {
        let container = try seeded(kind)
        let (quick, italian, titleLength) = (quick, italian, titleLength)
        let predicate = #Predicate<ExpressionRecipe> {
            (quick.evaluate($0) && italian.evaluate($0)) || titleLength.evaluate($0) == 3
        }
        let context = ModelContext(container)
        let titles = try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.title)])).map(
            \.title)
        #expect(titles == ["Cacio e pepe", "Pho"])
        #expect(try context.fetchCount(FetchDescriptor(predicate: predicate)) == 2)
    }

    @Test(arguments: StoreKind.all) func anExpressionAppliesAnotherExpression(_ kind: StoreKind) throws {
        let container = try seeded(kind)
        let (quick, titleLength) = (quick, titleLength)
        let quickAndShort = #Expression<ExpressionRecipe, Bool> { quick.evaluate($0) && titleLength.evaluate($0) < 10 }
        let predicate = #Predicate<ExpressionRecipe> { quickAndShort.evaluate($0) }
        let titles = try ModelContext(container).fetch(FetchDescriptor(predicate: predicate)).map(\.title)
        #expect(titles == ["Omelette"])
        #expect(try quickAndShort.evaluate(ExpressionRecipe(title: "Toast", minutes: 3)))
        #expect(try !quickAndShort.evaluate(ExpressionRecipe(title: "Toast with jam", minutes: 3)))
    }

    @Test func anExpressionIsCodableButCannotBeArchivedOnLinux() throws {
        let encoding = #expect(throws: EncodingError.self) { try JSONEncoder().encode(quick) }
        if case .invalidValue(_, let context) = encoding {
            #expect(context.debugDescription.contains("can't encode an Expression"))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Expression<ExpressionRecipe, Bool>.self, from: Data("[]".utf8))
        }
    }
}
