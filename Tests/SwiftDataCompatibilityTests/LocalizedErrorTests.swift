import Foundation
import SwiftData
import Testing

@Model final class LocalizedNote {
    @Attribute(.unique) var slug: String
    init(slug: String) { self.slug = slug }
}

/// `error.localizedDescription`, which SwiftData apps print and show, carries Strata's message (a `SwiftDataError`'s:
/// its underlying error's).
@Suite struct LocalizedErrorTests {
    @Test(arguments: StoreKind.all) func localizedDescriptionIsTheMessage(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, LocalizedNote.self)
        let context = ModelContext(container)
        context.mergePolicy = .error
        context.insert(LocalizedNote(slug: "a"))
        try context.save()
        context.insert(LocalizedNote(slug: "a"))
        do {
            try context.save()
            Issue.record("a duplicate slug saved")
        } catch {
            #expect(error.localizedDescription == StrataError(error)?.description)
            #expect(String(describing: error).hasSuffix(error.localizedDescription))
            #expect(error.localizedDescription.contains("LocalizedNote"))
            #expect(!error.localizedDescription.contains("error 4"))
        }
    }

    @Test func formatErrorsLocalizeToTheirDescription() {
        do {
            _ = try FormatPredicate.parse(format: "slug CONTAIN 'a'")
            Issue.record("a malformed format string parsed")
        } catch {
            #expect(error.localizedDescription == String(describing: error))
            #expect(error.localizedDescription.contains("slug"))
        }
    }
}
