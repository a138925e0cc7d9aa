import Testing

@Suite("#Index and #Unique")
struct ConstraintMacroTests {
    @Test("#Index without a generic argument takes the enclosing class from the lexical context")
    func indexInfersEnclosingClass() {
        let result = expand(
            """
            final class Book {
                #Index([\\Book.title])
            }
            """, only: ["Index"])
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.source == """
                final class Book {
                    public static var _$strataIndices: [[AnyKeyPath]] {
                        let keyPaths: [[PartialKeyPath<Book>]] = [[\\Book.title]]
                        return keyPaths
                    }
                }
                """)
    }

    @Test("#Unique copies each constraint list in order")
    func uniqueKeepsEveryList() {
        let result = expand(
            """
            final class Book {
                #Unique<Book>([\\.isbn], [\\.title, \\.author]) // composite
            }
            """, only: ["Unique"])
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.source.contains(
                "let keyPaths: [[PartialKeyPath<Book>]] = [[\\.isbn], [\\.title, \\.author]]"))
        #expect(result.source.contains("public static var _$strataUniqueConstraints: [[AnyKeyPath]]"))
    }

    @Test("#Index of index kinds reads each kind's key paths")
    func indexOfKindsRecordsTheirKeyPaths() {
        let result = expand(
            """
            final class Place {
                #Index<Place>(.binary([\\.name]), .rtree([\\.latitude, \\.longitude]))
            }
            """, only: ["Index"])
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.source.contains(
                "let indices: [Strata.Schema.Index<Place>.Types<Place>] = "
                    + "[.binary([\\.name]), .rtree([\\.latitude, \\.longitude])]"))
        #expect(result.source.contains("return indices.map {"))
    }

    @Test("Outside a class and without a generic argument it asks for the model type")
    func indexWithoutTypeOutsideClass() {
        let result = expand(
            """
            #Index([\\Book.title])
            """, only: ["Index"])
        #expect(
            result.diagnostics == [
                ReportedDiagnostic(
                    line: 1, column: 1, "write the model type explicitly, as in #Index<Book>([\\.title])")
            ])
    }
}
