import SwiftSyntaxMacroExpansion
import Testing

@testable import StrataMacros

@Suite("@Model expansion")
struct ModelMacroExpansionTests {
    @Test("The Book example expands to the documented members, attributes and conformances")
    func bookExample() {
        let result = expand(
            """
            @Model
            final class Book {
                #Index<Book>([\\.title], [\\.author, \\.publisher])
                #Unique<Book>([\\.isbn])
                @Attribute(.unique) var isbn: String
                var title: String
                @Attribute(originalName: "writer") var author: String
                var publisher: String = "Unknown"
                var summary: String?
                @Relationship(deleteRule: .cascade, inverse: \\Chapter.book) var chapters: [Chapter] = []
                @Transient var viewCount: Int = 0
                var shout: String { title.uppercased() }          // computed: untouched
                static var shared = 0                              // static: untouched
                init(isbn: String, title: String, author: String) { self.isbn = isbn; self.title = title; self.author = author }
            }
            """, only: modelMacrosOnly)
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.source == """

                final class Book {
                    public static var _$strataIndices: [[AnyKeyPath]] {
                        let keyPaths: [[PartialKeyPath<Book>]] = [[\\.title], [\\.author, \\.publisher]]
                        return keyPaths
                    }
                    public static var _$strataUniqueConstraints: [[AnyKeyPath]] {
                        let keyPaths: [[PartialKeyPath<Book>]] = [[\\.isbn]]
                        return keyPaths
                    }
                    @_PersistedProperty var isbn: String
                    @_PersistedProperty
                    var title: String
                    @_PersistedProperty var author: String
                    @_PersistedProperty
                    var publisher: String = "Unknown"
                    @_PersistedProperty
                    var summary: String?
                    @_PersistedProperty var chapters: [Chapter] = []
                    var viewCount: Int = 0
                    var shout: String { title.uppercased() }          // computed: untouched
                    static var shared = 0                              // static: untouched
                    init(isbn: String, title: String, author: String) { self.isbn = isbn; self.title = title; self.author = author }

                    @ObservationIgnored @exclusivity(unchecked) public var persistentBackingData: Strata.ModelBackingData = Strata.ModelBackingData.forNewModel(Book.self, propertyCount: 6)

                    nonisolated static let _$isbnProperty = Strata.PersistentProperty(index: 0, name: "isbn", keyPath: \\Book.isbn, metadata: Strata.Schema.Attribute(.unique))

                    nonisolated static let _$titleProperty = Strata.PersistentProperty(index: 1, name: "title", keyPath: \\Book.title, metadata: nil)

                    nonisolated static let _$authorProperty = Strata.PersistentProperty(index: 2, name: "author", keyPath: \\Book.author, metadata: Strata.Schema.Attribute(originalName: "writer"))

                    nonisolated static let _$publisherProperty = Strata.PersistentProperty(index: 3, name: "publisher", keyPath: \\Book.publisher, metadata: nil)

                    nonisolated static let _$summaryProperty = Strata.PersistentProperty(index: 4, name: "summary", keyPath: \\Book.summary, metadata: nil)

                    nonisolated static let _$chaptersProperty = Strata.PersistentProperty(index: 5, name: "chapters", keyPath: \\Book.chapters, metadata: Strata.Schema.Relationship(deleteRule: .cascade, inverse: \\Chapter.book))

                    nonisolated struct _$BookPropertyList {
                        let `isbn` = Book._$isbnProperty
                        let `title` = Book._$titleProperty
                        let `author` = Book._$authorProperty
                        let `publisher` = Book._$publisherProperty
                        let `summary` = Book._$summaryProperty
                        let `chapters` = Book._$chaptersProperty
                    }

                    nonisolated static let _$BookProperties = _$BookPropertyList()

                    public static var schemaMetadata: [Strata.Schema.PropertyMetadata] {
                        [
                            Strata.Schema.PropertyMetadata(Book._$isbnProperty),
                            Strata.Schema.PropertyMetadata(Book._$titleProperty),
                            Strata.Schema.PropertyMetadata(Book._$authorProperty),
                            Strata.Schema.PropertyMetadata(Book._$publisherProperty, defaultValue: "Unknown"),
                            Strata.Schema.PropertyMetadata(Book._$summaryProperty),
                            Strata.Schema.PropertyMetadata(Book._$chaptersProperty, defaultValue: [])
                        ]
                    }

                    public required init(backingData: Strata.ModelBackingData) {
                        self.persistentBackingData = backingData
                        self._isbn = Strata._PersistedSlot()
                        self._title = Strata._PersistedSlot()
                        self._author = Strata._PersistedSlot()
                        self._publisher = Strata._PersistedSlot()
                        self._summary = Strata._PersistedSlot()
                        self._chapters = Strata._PersistedSlot()
                    }


                """ + observationMembersAndConformances("Book"))
    }

    @Test("A non-final class whose stored properties all have defaults (or are optional) gets init()")
    func allDefaultsAddsPublicInit() {
        let result = expand(
            """
            @Model
            class Shelf {
                var name: String = "Main" // the shelf's label
                /// How many books fit.
                var capacity: Int = 10
                var note: Optional<String>
            }
            """, only: modelMacrosOnly)
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.source == """

                class Shelf {
                    @_PersistedProperty
                    var name: String = "Main" // the shelf's label
                    @_PersistedProperty
                    /// How many books fit.
                    var capacity: Int = 10
                    @_PersistedProperty
                    var note: Optional<String>

                    @ObservationIgnored @exclusivity(unchecked) public var persistentBackingData: Strata.ModelBackingData = Strata.ModelBackingData.forNewModel(Shelf.self, propertyCount: 3)

                    nonisolated static let _$nameProperty = Strata.PersistentProperty(index: 0, name: "name", keyPath: \\Shelf.name, metadata: nil)

                    nonisolated static let _$capacityProperty = Strata.PersistentProperty(index: 1, name: "capacity", keyPath: \\Shelf.capacity, metadata: nil)

                    nonisolated static let _$noteProperty = Strata.PersistentProperty(index: 2, name: "note", keyPath: \\Shelf.note, metadata: nil)

                    nonisolated struct _$ShelfPropertyList {
                        let `name` = Shelf._$nameProperty
                        let `capacity` = Shelf._$capacityProperty
                        let `note` = Shelf._$noteProperty
                    }

                    nonisolated static let _$ShelfProperties = _$ShelfPropertyList()

                    public class var schemaMetadata: [Strata.Schema.PropertyMetadata] {
                        [
                            Strata.Schema.PropertyMetadata(Shelf._$nameProperty, defaultValue: "Main"),
                            Strata.Schema.PropertyMetadata(Shelf._$capacityProperty, defaultValue: 10),
                            Strata.Schema.PropertyMetadata(Shelf._$noteProperty)
                        ]
                    }

                    public class var _$strataEphemeralAttributes: [Strata.Schema.Attribute] {
                        []
                    }

                    public static func _$ShelfKeyPaths<_Sub: Shelf>(rootedAt _: _Sub.Type) -> [AnyKeyPath] {
                        [\\_Sub.name, \\_Sub.capacity, \\_Sub.note]
                    }

                    public class var _$strataInheritedKeyPaths: [AnyKeyPath] {
                        []
                    }

                    public required init(backingData: Strata.ModelBackingData) {
                        self.persistentBackingData = backingData
                        self._name = Strata._PersistedSlot()
                        self._capacity = Strata._PersistedSlot()
                        self._note = Strata._PersistedSlot()
                    }

                    public init() {
                    }


                """ + observationMembersAndConformances("Shelf"))
    }

    @Test("Attributes on their own line, trailing comments and an explicit @_PersistedProperty are kept")
    func oddFormatting() {
        let result = expand(
            """
            @Model final class Tag {
                @_PersistedProperty var name: String
                @Attribute(.unique)
                var slug: String // trailing comment
                init(name: String, slug: String) {
                    self.name = name
                    self.slug = slug
                }
            }
            """, only: modelMacrosOnly)
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.source == """
                final class Tag {
                    @_PersistedProperty var name: String
                    @_PersistedProperty
                    var slug: String // trailing comment
                    init(name: String, slug: String) {
                        self.name = name
                        self.slug = slug
                    }

                    @ObservationIgnored @exclusivity(unchecked) public var persistentBackingData: Strata.ModelBackingData = Strata.ModelBackingData.forNewModel(Tag.self, propertyCount: 2)

                    nonisolated static let _$nameProperty = Strata.PersistentProperty(index: 0, name: "name", keyPath: \\Tag.name, metadata: nil)

                    nonisolated static let _$slugProperty = Strata.PersistentProperty(index: 1, name: "slug", keyPath: \\Tag.slug, metadata: Strata.Schema.Attribute(.unique))

                    nonisolated struct _$TagPropertyList {
                        let `name` = Tag._$nameProperty
                        let `slug` = Tag._$slugProperty
                    }

                    nonisolated static let _$TagProperties = _$TagPropertyList()

                    public static var schemaMetadata: [Strata.Schema.PropertyMetadata] {
                        [
                            Strata.Schema.PropertyMetadata(Tag._$nameProperty),
                            Strata.Schema.PropertyMetadata(Tag._$slugProperty)
                        ]
                    }

                    public required init(backingData: Strata.ModelBackingData) {
                        self.persistentBackingData = backingData
                        self._name = Strata._PersistedSlot()
                        self._slug = Strata._PersistedSlot()
                    }


                """ + observationMembersAndConformances("Tag"))
    }

    @Test("A 'let' keeps its own storage, gets a constant descriptor and is set from the row by init(backingData:)")
    func letProperties() {
        let result = expand(
            """
            @Model final class Entry {
                @Attribute(.unique) let id: String
                let created: Date
                var text: String
                init(id: String, text: String) {
                    self.id = id
                    self.created = .now
                    self.text = text
                }
            }
            """, only: modelMacrosOnly)
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.source == """
                final class Entry {
                    let id: String
                    let created: Date
                    @_PersistedProperty
                    var text: String
                    init(id: String, text: String) {
                        self.id = id
                        self.created = .now
                        self.text = text
                    }

                    @ObservationIgnored @exclusivity(unchecked) public var persistentBackingData: Strata.ModelBackingData = Strata.ModelBackingData.forNewModel(Entry.self, propertyCount: 3)

                    nonisolated static let _$idProperty = Strata.PersistentProperty(index: 0, name: "id", keyPath: \\Entry.id, metadata: Strata.Schema.Attribute(.unique)).constant()

                    nonisolated static let _$createdProperty = Strata.PersistentProperty(index: 1, name: "created", keyPath: \\Entry.created, metadata: nil).constant()

                    nonisolated static let _$textProperty = Strata.PersistentProperty(index: 2, name: "text", keyPath: \\Entry.text, metadata: nil)

                    nonisolated struct _$EntryPropertyList {
                        let `id` = Entry._$idProperty
                        let `created` = Entry._$createdProperty
                        let `text` = Entry._$textProperty
                    }

                    nonisolated static let _$EntryProperties = _$EntryPropertyList()

                    public static var schemaMetadata: [Strata.Schema.PropertyMetadata] {
                        [
                            Strata.Schema.PropertyMetadata(Entry._$idProperty),
                            Strata.Schema.PropertyMetadata(Entry._$createdProperty),
                            Strata.Schema.PropertyMetadata(Entry._$textProperty)
                        ]
                    }

                    public required init(backingData: Strata.ModelBackingData) {
                        self.persistentBackingData = backingData
                        self.id = backingData.getValue(for: Entry._$idProperty)
                        self.created = backingData.getValue(for: Entry._$createdProperty)
                        self._text = Strata._PersistedSlot()
                    }


                """ + observationMembersAndConformances("Entry"))
    }

    @Test("The conformances the compiler asks for are added, nonisolated unless the class names its global actor")
    func conformancesFollowTheRequestedList() {
        let source = """
            @Model final class Note {
                var text: String = ""
            }
            """
        let every = MacroSpec(
            type: ModelMacro.self, conformances: ["PersistentModel", "Observable", "Sendable", "Equatable", "Hashable"])
        let all = expand(source, specs: ["Model": every]).source
        #expect(all.contains("extension Note: nonisolated Strata.PersistentModel {"))
        #expect(all.contains("extension Note: nonisolated Observation.Observable {"))
        #expect(all.contains("extension Note: @unchecked Swift.Sendable {"))
        #expect(all.contains("extension Note: nonisolated Swift.Equatable {"))
        #expect(all.contains("extension Note: nonisolated Swift.Hashable {"))

        // A class that states `Sendable` (or `Hashable`) itself isn't asked for it, and gets no second one.
        let model = MacroSpec(type: ModelMacro.self, conformances: ["PersistentModel"])
        let onlyPersistent = expand(source, specs: ["Model": model]).source
        #expect(onlyPersistent.contains("extension Note: nonisolated Strata.PersistentModel {"))
        #expect(!onlyPersistent.contains("Observation.Observable"))
        #expect(!onlyPersistent.contains("Sendable"))
        #expect(!onlyPersistent.contains("Hashable"))
        let mainActor = expand(
            "@MainActor @Model final class Note {\n    var text: String = \"\"\n}", specs: ["Model": model])
        #expect(!mainActor.source.contains("Sendable"))
        #expect(mainActor.source.contains("extension Note: Strata.PersistentModel {"))
    }

    @Test("A transformable attribute's descriptor stores it through its transformer, whatever its type")
    func transformableAttribute() {
        let result = expand(
            """
            @Model final class Palette {
                @Attribute(.transformable(by: SwatchTransformer.self)) var swatch: Swatch
                @Attribute(.unique) var name: String = ""
                init(swatch: Swatch) { self.swatch = swatch }
            }
            """, only: ["Model"])
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.source.contains(
                "keyPath: \\Palette.swatch, transformable: Strata.Schema.Attribute(.transformable(by: SwatchTransformer.self)))"
            ))
        #expect(result.source.contains("keyPath: \\Palette.name, metadata: Strata.Schema.Attribute(.unique))"))
    }

    @Test("The Equatable witness calls ==, with the access of the class's own operator if it declares one")
    func ownEquality() {
        let result = expand(
            """
            @Model final class Note {
                var text: String = ""
                public static func == (lhs: Note, rhs: Note) -> Bool { lhs.text == rhs.text }
            }
            """, only: ["Model"])
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.source.contains(
                """
                    @_implements(Swift.Equatable, ==(_:_:))
                    public nonisolated static func _$strataEquals(_ lhs: Note, _ rhs: Note) -> Bool {
                        lhs == rhs
                    }
                """))
        let plain = expand("@Model final class Plain {\n    var text: String = \"\"\n}").source
        #expect(plain.contains("nonisolated static let _$strataEquality = Strata._ModelEquality()"))
        #expect(
            plain.contains(
                """
                    @_implements(Swift.Equatable, ==(_:_:))
                    public nonisolated static func _$strataEquals(_ lhs: Plain, _ rhs: Plain) -> Bool {
                        _$strataEquality.equals(lhs, rhs) {
                            $0 == $1
                        }
                    }
                """))
        let isolated = expand("@MainActor @Model final class Pinned {\n    var text: String = \"\"\n}").source
        #expect(isolated.contains("public static func _$strataEquals(_ lhs: Pinned, _ rhs: Pinned) -> Bool"))
        // The observation members reach the backing data, isolated to the class's actor as it is.
        #expect(isolated.contains("public var _$observationRegistrar: Observation.ObservationRegistrar {"))
        #expect(isolated.contains("internal func access<_Member>(keyPath: KeyPath<Pinned, _Member>) {"))
    }

    @Test("An operator the class declares for a protocol its own clause states gets a named witness")
    func ownOperators() {
        let result = expand(
            """
            @Model final class Course: Identifiable, Swift.Comparable {
                var position: Int = 0
                static func < (lhs: Course, rhs: Course) -> Bool { lhs.position < rhs.position }
                public static func <= (lhs: Course, rhs: Course) -> Bool { lhs.position <= rhs.position }
                static func + (lhs: Course, rhs: Course) -> Course { lhs }
            }
            """, only: ["Model"])
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.source.contains(
                """
                    @_implements(Swift.Comparable, <(_:_:))
                    nonisolated static func _$strataLessThan(_ lhs: Course, _ rhs: Course) -> Bool {
                        lhs < rhs
                    }

                    @_implements(Swift.Comparable, <=(_:_:))
                    public nonisolated static func _$strataLessThanOrEqual(_ lhs: Course, _ rhs: Course) -> Bool {
                        lhs <= rhs
                    }
                """))
        // `+` witnesses nothing the clause states; a conformance stated in an extension needs no witness.
        #expect(!result.source.contains("_$strataAdd"))
        let inExtension = expand(
            """
            @Model final class Step {
                var position: Int = 0
                static func < (lhs: Step, rhs: Step) -> Bool { lhs.position < rhs.position }
            }
            """, only: ["Model"])
        #expect(!inExtension.source.contains("_$strataLessThan"))
        let assigning = expand(
            """
            @Model final class Money: Numeric {
                var cents: Int = 0
                static func *= (lhs: inout Money, rhs: Money) { lhs.cents *= rhs.cents }
            }
            """, only: ["Model"])
        #expect(
            assigning.source.contains(
                """
                    @_implements(Swift.Numeric, *=(_:_:))
                    nonisolated static func _$strataMultiplyAssign(_ lhs: inout Money, _ rhs: Money) {
                        lhs *= rhs
                    }
                """))
    }
}
