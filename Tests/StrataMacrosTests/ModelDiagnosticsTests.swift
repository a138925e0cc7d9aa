import Testing

/// `@Model` inside a small class around `members`, which start on line 3, column 5.
private func model(_ members: String, initializer: Bool = true) -> String {
    let body = members.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
    let initLine = initializer ? ["    init() {}"] : []
    return (["@Model", "final class Book {"] + body + initLine + ["}"]).joined(separator: "\n")
}

private let supportedList =
    "Bool, integers, Double, Float, Decimal, String, Date, Data, UUID, URL, "
    + "raw-value enums, Codable types, arrays and dictionaries of Codable values, @Model classes, "
    + "and Optionals of these"

@Suite("@Model diagnostics")
struct ModelDiagnosticsTests {
    @Test(
        "@Model on a non-class names the declaration and offers 'final class'",
        arguments: ["struct", "enum", "actor", "protocol"])
    func notAClass(keyword: String) {
        let result = expand("@Model\n\(keyword) Book {\n}")
        #expect(
            result.diagnostics == [
                ReportedDiagnostic(
                    line: 2, column: 1,
                    "@Model can only be applied to a class; change '\(keyword) Book' to 'final class Book'",
                    fixIts: ["Change '\(keyword)' to 'final class' → final class"])
            ])
        #expect(!result.source.contains("PersistentModel"))
    }

    @Test(
        "A property whose type Swift infers from its initial value is persisted as written",
        arguments: [
            "var count = 0", "var added = Date.now", "var provider = Provider.ollama", "var tags = [String]()",
            "var items = [Item]()", "var score = 0.0", "var title = \"\"",
        ])
    func inferredType(declaration: String) {
        let result = expand(model(declaration), only: modelMacrosOnly)
        let name = declaration.split(separator: " ")[1]
        #expect(result.diagnostics.isEmpty)
        #expect(result.source.contains("keyPath: \\Book.\(name), metadata: nil)"))
        #expect(result.source.contains("@_PersistedProperty\n    \(declaration)"))
    }

    @Test("An implicitly unwrapped property is stored as an Optional, needing no initial value")
    func implicitlyUnwrapped() {
        let result = expand(model("var value: String!\nvar track: Track!", initializer: false))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.source.contains("keyPath: \\Book.value, metadata: nil)"))
        #expect(result.source.contains("keyPath: \\Book.track, metadata: nil)"))
    }

    @Test(
        "Types that can never be stored are rejected at the type, naming property and type",
        arguments: [
            "() -> Void", "(Int, Int)", "Any", "AnyObject", "any Codable", "some Codable", "Int.Type",
        ])
    func unsupportedType(type: String) {
        let result = expand(model("var value: \(type)", initializer: false))
        #expect(
            result.diagnostics.first
                == ReportedDiagnostic(
                    line: 3, column: 16,
                    "property 'value' has type '\(type)', which can't be persisted; use \(supportedList), or mark it @Transient"
                ))
    }

    @Test("A nested unsupported type is named in the message")
    func unsupportedNestedType() {
        let result = expand(model("var values: [String: [Any]] = [:]"))
        #expect(
            result.diagnostics == [
                ReportedDiagnostic(
                    line: 3, column: 17,
                    "property 'values' has type '[String: [Any]]' (because of 'Any'), which can't be persisted; "
                        + "use \(supportedList), or mark it @Transient")
            ])
    }

    @Test(
        "Storable shapes are accepted",
        arguments: [
            "[String: Int]", "Set<UUID>", "Foundation.Date", "(Int)", "Optional<[URL]>", "Genre?",
            "[Chapter]", "Swift.Array<Double>",
        ])
    func supportedType(type: String) {
        let result = expand(
            model("var value: \(type)\ninit(value: \(type)) { self.value = value }", initializer: false))
        #expect(result.diagnostics.isEmpty)
        #expect(result.source.contains("_$valueProperty"))
    }

    @Test("'let' without a value is persisted, with no diagnostic")
    func letWithoutDefault() {
        let result = expand(model("let id: Int\ninit(id: Int) { self.id = id }", initializer: false))
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.source.contains(
                "_$idProperty = Strata.PersistentProperty(index: 0, name: \"id\", keyPath: \\Book.id, metadata: nil).constant()"
            ))
        #expect(!result.source.contains("@_PersistedProperty"))
    }

    @Test("'let' with an initial value can't be read back from the store; the fix-it changes it to 'var'")
    func letWithDefault() {
        let result = expand(model("let created = Date()"))
        #expect(
            result.diagnostics == [
                ReportedDiagnostic(
                    line: 3, column: 5,
                    "'let' property 'created' has an initial value, which Swift gives every model loaded from the store "
                        + "instead of its stored value; use 'var' (or assign the value in the initializer)",
                    fixIts: ["Replace 'let' with 'var' → var"])
            ])
    }

    @Test("@Transient needs a default value only for a type without an empty value Strata knows")
    func transientWithoutDefault() {
        let result = expand(model("@Transient var scratch: Scratchpad"))
        #expect(
            result.diagnostics == [
                ReportedDiagnostic(
                    line: 3, column: 20,
                    "@Transient property 'scratch' needs a default value, because models loaded from the store don't "
                        + "run your initializer and 'Scratchpad' has no empty value Strata knows; add '= <value>'")
            ])
        // Optionals, numbers, strings, flags and collections start empty in loaded models, as SwiftData compiles them.
        let known = expand(
            model(
                "@Transient var cache: [String: Int]\n@Transient var count: Int\n@Transient var selection: Scratchpad?\n"
                    + "@Transient let note: String?"))
        #expect(known.diagnostics.isEmpty)
        #expect(known.source.contains("self.cache = [:]"))
        #expect(known.source.contains("self.count = 0"))
        #expect(known.source.contains("self.note = nil"))
        #expect(!known.source.contains("self.selection ="))
    }

    @Test("@Attribute(.ephemeral) needs a default value unless its type has an empty value, and accepts any type")
    func ephemeralWithoutDefault() {
        let result = expand(
            model("@Attribute(.ephemeral) var cursor: Cursor\n@Attribute(.ephemeral) var hover: () -> Void = {}"))
        #expect(
            result.diagnostics == [
                ReportedDiagnostic(
                    line: 3, column: 32,
                    "@Attribute(.ephemeral) property 'cursor' needs a default value, because models loaded from the "
                        + "store don't run your initializer and 'Cursor' has no empty value Strata knows; add '= <value>'"
                )
            ])
        let optional = expand(model("@Attribute(.ephemeral) var cursor: Cursor?"), only: modelMacrosOnly)
        #expect(optional.diagnostics.isEmpty)
        #expect(!optional.source.contains("_$cursorProperty"))
        let flag = expand(model("@Attribute(.ephemeral) var isSelected: Bool"))
        #expect(flag.diagnostics.isEmpty)
        #expect(flag.source.contains("self._isSelected = false"))
    }

    @Test("'lazy' properties are reported at the modifier")
    func lazyProperty() {
        let result = expand(model("lazy var cache: [Int] = []"))
        #expect(
            result.diagnostics == [
                ReportedDiagnostic(
                    line: 3, column: 5,
                    "'lazy' property 'cache' can't be persisted; mark it @Transient or remove 'lazy'")
            ])
        #expect(!result.source.contains("_$cacheProperty"))
    }

    @Test("A persisted property isolated to a global actor is reported at the attribute; a transient one isn't")
    func isolatedStoredProperty() {
        let result = expand(model("@MainActor var isShown: Bool = false\n@MainActor @Transient var hover = false"))
        #expect(
            result.diagnostics == [
                ReportedDiagnostic(
                    line: 3, column: 5,
                    "persisted property 'isShown' can't be isolated to '@MainActor': a model's stored values are "
                        + "read from its context's actor; remove '@MainActor' (mark the methods that need the actor "
                        + "instead), or mark the property @Transient")
            ])
        #expect(!result.source.contains("_$isShownProperty"))
    }

    @Test(
        "Observed properties are persisted, attributes and relationships alike",
        arguments: [
            "var title: String = \"\" { didSet { print(title) } }",
            "@Relationship(inverse: \\Video.book) var video: Video? { willSet { print(newValue) } }",
        ])
    func observedProperty(declaration: String) {
        let result = expand(model(declaration), only: modelMacrosOnly)
        #expect(result.diagnostics.isEmpty)
        #expect(result.source.contains("@_PersistedProperty"))
    }

    @Test("A class with unassigned stored properties and no initializer lists them")
    func missingInitializer() {
        let result = expand(model("var title: String\nvar pages: Int\nvar note: String?", initializer: false))
        #expect(
            result.diagnostics == [
                ReportedDiagnostic(
                    line: 2, column: 13,
                    "@Model class 'Book' needs an initializer that assigns 'title', 'pages' "
                        + "(or give every stored property a default value)")
            ])
        #expect(!result.source.contains("public init()"))
    }

    @Test("A convenience initializer doesn't count as the designated one")
    func convenienceInitializerIsNotEnough() {
        let result = expand(model("var title: String\nconvenience init(x: Int) { self.init() }", initializer: false))
        #expect(
            result.diagnostics.map(\.message) == [
                "@Model class 'Book' needs an initializer that assigns 'title' (or give every stored property a default value)"
            ])
    }

    @Test("A second #Index is reported at the repeated macro")
    func repeatedIndex() {
        let result = expand(
            model("#Index<Book>([\\.title])\n#Index<Book>([\\.pages])\nvar title: String = \"\"\nvar pages: Int = 0"))
        #expect(
            result.diagnostics == [
                ReportedDiagnostic(
                    line: 4, column: 5,
                    "a @Model class can declare only one #Index; list every index as another argument of the first #Index"
                )
            ])
    }

    @Test("#Unique naming another type is reported at the generic argument")
    func constraintForAnotherType() {
        let result = expand(model("#Unique<Author>([\\.title])\nvar title: String = \"\""))
        #expect(
            result.diagnostics == [
                ReportedDiagnostic(
                    line: 3, column: 13, "#Unique<Author> must name the class it is declared in; write #Unique<Book>")
            ])
    }

    @Test("@Attribute and @Relationship together are reported once, at @Attribute")
    func attributeAndRelationship() {
        let result = expand(model("@Attribute(.unique) @Relationship(deleteRule: .cascade) var tags: [Tag] = []"))
        #expect(
            result.diagnostics == [
                ReportedDiagnostic(
                    line: 3, column: 5,
                    "property 'tags' can't have both @Attribute and @Relationship; use @Relationship for references to "
                        + "@Model classes and @Attribute for everything else")
            ])
    }

    @Test(
        "@Attribute and @Relationship on a computed property are reported at the marker",
        arguments: ["Attribute", "Relationship"])
    func markerOnComputedProperty(marker: String) {
        let result = expand(model("var title: String = \"\"\n@\(marker) var shout: String { title.uppercased() }"))
        #expect(
            result.diagnostics == [
                ReportedDiagnostic(
                    line: 4, column: 5,
                    "@\(marker) can't be applied to computed property 'shout'; only stored properties are persisted, "
                        + "so remove @\(marker)")
            ])
    }

    @Test("@Transient on a computed property changes nothing, as in SwiftData")
    func transientOnComputedProperty() {
        let result = expand(model("var title: String = \"\"\n@Transient var isEmpty: Bool { title.isEmpty }"))
        #expect(result.diagnostics.isEmpty)
        #expect(result.source.contains("var isEmpty: Bool { title.isEmpty }"))
        #expect(!result.source.contains("_$isEmptyProperty"))
    }

    @Test("Generic classes are rejected at the generic parameters, and nothing is generated")
    func genericClass() {
        let result = expand("@Model\nfinal class Box<T> {\n    var title: String = \"\"\n}")
        #expect(
            result.diagnostics == [
                ReportedDiagnostic(
                    line: 2, column: 16,
                    "@Model doesn't support generic classes; remove the generic parameters from 'Box'")
            ])
        #expect(!result.source.contains("_PersistedProperty"))
        #expect(!result.source.contains("extension"))
    }

    @Test("Several properties in one declaration ask for one per line")
    func multipleBindings() {
        let result = expand(model("var width, height: Int"))
        #expect(
            result.diagnostics == [
                ReportedDiagnostic(
                    line: 3, column: 5,
                    "'var width, height' declares several properties at once; @Model needs one property per "
                        + "declaration, so declare each on its own line")
            ])
    }

    @Test("A stored property inside #if is reported at its name and left alone")
    func conditionalStoredProperty() {
        let result = expand(model("var title: String = \"\"\n#if DEBUG\nvar debugNote: String = \"\"\n#endif"))
        #expect(
            result.diagnostics == [
                ReportedDiagnostic(
                    line: 5, column: 9,
                    "'debugNote' is stored by @Model, so it can't be declared inside '#if': the store's schema must "
                        + "be the same in every build; move it out of the '#if' block, or mark it @Transient")
            ])
        #expect(result.source.contains("_$titleProperty"))
        #expect(!result.source.contains("_debugNote"))
    }

    @Test("Methods, computed and @Transient properties and initializers inside #if are accepted")
    func conditionalMembers() {
        let result = expand(
            model(
                "var title: String\n#if os(Linux)\nvar platform: String { \"Linux\" }\n@Transient var note = \"\"\n"
                    + "func shout() -> String { title.uppercased() }\n#else\nvar platform: String { \"other\" }\n#endif\n"
                    + "#if canImport(Foundation)\ninit(title: String) { self.title = title }\n#endif"))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.source.contains("_$titleProperty"))
        #expect(!result.source.contains("_$platformProperty"))
        #expect(!result.source.contains("_$noteProperty"))
    }
}
