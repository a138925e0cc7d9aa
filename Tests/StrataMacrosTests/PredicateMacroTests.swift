import Testing

/// The `SwiftData` module's `#Predicate` and `#Expression`: the tree they write, and what they refuse, with the
/// message and fix-it Foundation's macro gives. Their behaviour, against Foundation's macro as the oracle, is in
/// `SwiftDataCompatibilityTests/PredicateMacro`.
@Suite("#Predicate and #Expression")
struct PredicateMacroTests {
    /// The diagnostics of `#Predicate<Item> { <body> }`, the body written on the first line.
    private func diagnostics(_ body: String) -> [String] {
        expand("let p = #Predicate<Item> { \(body) }", only: ["Predicate"]).diagnostics.map {
            "\($0.column - 27): \($0.message)" + $0.fixIts.map { " [\($0)]" }.joined()
        }
    }

    @Test("Operators, member accesses and values become Foundation's builder calls")
    func writesFoundationsTree() {
        let result = expand("let p = #Predicate<Item> { $0.title == name && !$0.done }", only: ["Predicate"])
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.source == """
                let p = Foundation.Predicate<Item>({
                    PredicateExpressions.build_Conjunction(
                        lhs: PredicateExpressions.build_Equal(
                            lhs: PredicateExpressions.build_KeyPath(
                                root: PredicateExpressions.build_Arg($0),
                                keyPath: \\.title
                            ),
                            rhs: PredicateExpressions.build_Arg(name)
                        ),
                        rhs: PredicateExpressions.build_Negation(
                            PredicateExpressions.build_KeyPath(
                                root: PredicateExpressions.build_Arg($0),
                                keyPath: \\.done
                            )
                        )
                    )
                })
                """)
    }

    @Test("evaluate(_:) takes the expression and one argument per input")
    func evaluateTakesAPack() {
        let result = expand(
            "let p = #Predicate<Item> { item in pair.evaluate(item, limit) }", only: ["Predicate"])
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.source == """
                let p = Foundation.Predicate<Item>({ item in
                    PredicateExpressions.build_evaluate(
                        PredicateExpressions.build_Arg(pair),
                        PredicateExpressions.build_Arg(item),
                        PredicateExpressions.build_Arg(limit)
                    )
                })
                """)
    }

    @Test("An optional chain becomes flatMap, and if-let a flatMap with nil coalescing")
    func optionalsBecomeFlatMaps() {
        let chain = expand("let p = #Predicate<Item> { $0.owner?.name == nil }", only: ["Predicate"])
        #expect(chain.diagnostics.isEmpty)
        #expect(chain.source.contains("PredicateExpressions.build_flatMap("))
        #expect(chain.source.contains(") {\n            PredicateExpressions.build_KeyPath("))
        let binding = expand(
            "let p = #Predicate<Item> { if let owner = $0.owner { owner.active } else { false } }",
            only: ["Predicate"])
        #expect(binding.diagnostics.isEmpty)
        #expect(
            binding.source.contains(
                "PredicateExpressions.build_NilCoalesce(\n        lhs: PredicateExpressions.build_flatMap("))
        #expect(binding.source.contains(") { owner in"))
        #expect(binding.source.contains("rhs: PredicateExpressions.build_Arg(false)"))
    }

    @Test("#Expression makes an Expression of the same tree")
    func expressionMakesAnExpression() {
        let result = expand("let e = #Expression<Item, Int> { $0.tags.count }", only: ["Expression"])
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.source.hasPrefix(
                "let e = Foundation.Expression<Item, Int>({\n    PredicateExpressions.build_KeyPath("))
    }

    @Test("Typed closure parameters become Variables and the return type is dropped")
    func typedParametersBecomeVariables() {
        let result = expand("let p = #Predicate { (item: Item) -> Bool in item.done }", only: ["Predicate"])
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.source.hasPrefix("let p = Foundation.Predicate({ (item: PredicateExpressions.Variable<Item>) in\n"))
    }

    @Test("A closure passed as an argument, instead of trailing, is refused with a fix-it")
    func requiresATrailingClosure() {
        let result = expand("let p = #Predicate<Item>({ $0.done })", only: ["Predicate"])
        #expect(
            result.diagnostics.map(\.description) == [
                "1:9 #Predicate macro expansion requires a trailing closure "
                    + "[\"Use a trailing closure instead of a function parameter → #Predicate<Item> { $0.done }\"]"
            ])
        #expect(expand("let p = #Predicate<Item>", only: ["Predicate"]).diagnostics.count == 1)
    }

    @Test("What the grammar can't express is refused where it is written, with Foundation's message")
    func refusesWhatItCannotExpress() {
        #expect(diagnostics("$0.flags & 1 == 1") == ["10: The '&' operator is not supported in this predicate"])
        #expect(diagnostics("abs($0.count) > 1") == ["1: Global functions are not supported in this predicate"])
        #expect(
            diagnostics("$0.name.hasPrefix(\"A\")") == [
                "9: The hasPrefix(_:) function is not supported in this predicate "
                    + "[Use starts(with:) → $0.name.starts(with: \"A\")]"
            ])
        #expect(
            diagnostics("$0.name.lowercased() == name")
                == ["9: The lowercased() function is not supported in this predicate"])
        #expect(
            diagnostics("$0.kind == .active")
                == ["12: Member access without an explicit base is not supported in this predicate"])
        #expect(diagnostics("($0.a, $0.b) == (1, 2)").count == 2)
        #expect(
            diagnostics("switch $0.kind { case 1: true default: false }")
                == ["1: Switch expressions are not supported in this predicate"])
        #expect(
            diagnostics("for tag in $0.tags { }") == ["1: For-in loops are not supported in this predicate"])
        #expect(
            diagnostics("let x = 1; return $0.count == x")
                == ["12: Predicate body may only contain one expression"])
        #expect(
            diagnostics("if $0.done { true }")
                == ["1: If expressions without an else expression are not supported in this predicate"])
        #expect(
            diagnostics("if let owner = $0.owner, owner.active { true } else { false }")
                == ["4: Mixing optional bindings with other conditions is not supported in this predicate"])
        #expect(
            diagnostics("do { return $0.done } catch { return false }")
                == ["23: Catch clauses are not supported in this predicate"])
        #expect(
            diagnostics("$0.tags?.contains($0.name) == true").first?.hasSuffix(
                "Optional chaining is not supported here in this predicate. Use the flatMap(_:) function explicitly "
                    + "instead.") == true)
    }
}
