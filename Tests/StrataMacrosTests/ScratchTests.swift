import Testing

@Suite struct Scratch {
    @Test func dump() {
        let result = expand("""
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
        """)
        print(result.source)
        print(result.diagnostics)
    }
}
