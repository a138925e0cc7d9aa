import Testing

@Suite("@ModelActor")
struct ModelActorMacroTests {
    @Test("An actor gains its container, executor, initializer and the ModelActor conformance")
    func actorExpansion() {
        let result = expand(
            """
            @ModelActor
            actor Importer {
                func run() {}
            }
            """, only: ["ModelActor"])
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.source == """

                actor Importer {
                    func run() {}

                    nonisolated let modelExecutor: any Strata.ModelExecutor

                    nonisolated let modelContainer: Strata.ModelContainer

                    init(modelContainer: Strata.ModelContainer) {
                        let modelContext = Strata.ModelContext(modelContainer)
                        self.modelExecutor = Strata.DefaultSerialModelExecutor(modelContext: modelContext)
                        self.modelContainer = modelContainer
                    }
                }

                extension Importer: Strata.ModelActor {
                }
                """)
    }

    @Test("The generated members take a public or package actor's access level")
    func accessLevel() {
        for access in ["public", "package"] {
            let result = expand(
                """
                @ModelActor
                \(access) actor DataService {
                }
                """, only: ["ModelActor"])
            #expect(result.diagnostics.isEmpty)
            #expect(
                result.source == """

                    \(access) actor DataService {

                        \(access) nonisolated let modelExecutor: any Strata.ModelExecutor

                        \(access) nonisolated let modelContainer: Strata.ModelContainer

                        \(access) init(modelContainer: Strata.ModelContainer) {
                            let modelContext = Strata.ModelContext(modelContainer)
                            self.modelExecutor = Strata.DefaultSerialModelExecutor(modelContext: modelContext)
                            self.modelContainer = modelContainer
                        }
                    }

                    extension DataService: Strata.ModelActor {
                    }
                    """)
        }
    }

    @Test("On a class it reports an error at the keyword and adds nothing")
    func rejectsClass() {
        let result = expand(
            """
            @ModelActor
            final class Importer {}
            """, only: ["ModelActor"])
        #expect(
            result.diagnostics == [
                ReportedDiagnostic(
                    line: 2, column: 7, "@ModelActor can only be applied to an actor; change 'class' to 'actor'",
                    fixIts: ["Change 'class' to 'actor' → actor"])
            ])
        #expect(!result.source.contains("modelExecutor"))
        #expect(!result.source.contains("extension"))
    }
}
