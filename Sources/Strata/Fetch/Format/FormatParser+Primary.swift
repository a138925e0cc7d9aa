import Foundation

extension FormatParser {
    /// Parses a literal, argument, variable, key path, `{…}` aggregate, `SUBQUERY`, `CAST` or
    /// function call, followed by any `.key` / `.@operator` tail.
    mutating func parsePrimary() throws(PredicateFormatError) -> FormatOperand {
        let token = current
        switch token.kind {
        case .number:
            return .value(try numberValue(negative: false))
        case .string:
            advance()
            return .value(.string(token.text))
        case .specifier:
            return try parseArgument()
        case .variable:
            advance()
            return try parseKeyPathTail(FormatKeyPathBuilder(root: .variable(token.text)))
        case .escapedWord:
            return try parseKeyPath()
        case .atWord:
            return try parseKeyPathTail(FormatKeyPathBuilder(root: .object), allowingLeadingComponent: true)
        case .word:
            return try parseWord()
        case .symbol where token.text == "{":
            return try parseAggregate()
        case .end, .symbol:
            throw unexpected("a value, key path or expression")
        }
    }

    private mutating func parseWord() throws(PredicateFormatError) -> FormatOperand {
        let token = current
        guard let keyword = token.keyword else {
            if tokens[min(index + 1, tokens.count - 1)].isSymbol("(") {
                return try parseFunction()
            }
            return try parseKeyPath()
        }
        switch keyword {
        case .null, .nil:
            advance()
            return .value(.null)
        case .true, .yes, .false, .no:
            advance()
            return .value(.bool(keyword == .true || keyword == .yes))
        case .self:
            advance()
            return try parseKeyPathTail(FormatKeyPathBuilder(root: .object))
        case .subquery:
            return try parseSubquery()
        case .cast:
            return try parseCast()
        case .first, .last, .size, .anyKey, .fetch, .caseInsensitive, .ci, .function:
            throw error(
                .unknownOperator,
                "'\(token.text)' is a reserved word Strata does not support; write #\(token.text) to use it as a key",
                at: token, expected: "a value, key path or expression")
        default:
            throw unexpected("a value, key path or expression")
        }
    }

    /// Parses `key.key…` starting at a word or `#word`.
    private mutating func parseKeyPath() throws(PredicateFormatError) -> FormatOperand {
        try parseKeyPathTail(FormatKeyPathBuilder(root: .object), allowingLeadingComponent: true)
    }

    /// Parses `.key` / `.#key` / `.@operator` components into `builder`. With
    /// `allowingLeadingComponent`, the current token is the first component (no dot before it).
    mutating func parseKeyPathTail(
        _ builder: FormatKeyPathBuilder, allowingLeadingComponent: Bool = false
    ) throws(PredicateFormatError) -> FormatOperand {
        var builder = builder
        var needsComponent = allowingLeadingComponent
        while needsComponent || current.isSymbol(".") {
            if !needsComponent { advance() }
            needsComponent = false
            let token = current
            let component: String
            switch token.kind {
            case .word, .escapedWord: component = token.text
            case .atWord: component = "@" + token.text
            default: throw unexpected("a key or collection operator")
            }
            if let failure = builder.append(component) {
                throw error(.unknownOperator, FormatKeyPathBuilder.message(for: failure), at: token)
            }
            advance()
        }
        return builder.operand
    }

    /// Parses `{a, b, …}`; an all-constant list folds into one array value.
    private mutating func parseAggregate() throws(PredicateFormatError) -> FormatOperand {
        advance()
        let members = try parseList(closing: "}")
        var values: [FormatValue] = []
        for member in members {
            guard case .value(let value) = member else { return .aggregate(members) }
            values.append(value)
        }
        return .value(.array(values))
    }

    /// Parses comma-separated operands up to and including `closing`.
    mutating func parseList(closing: String) throws(PredicateFormatError) -> [FormatOperand] {
        var members: [FormatOperand] = []
        if current.isSymbol(closing) {
            advance()
            return members
        }
        while true {
            members.append(try parseOperand())
            if current.isSymbol(",") {
                advance()
                continue
            }
            try expect(closing, "',' or '\(closing)'")
            return members
        }
    }

    /// Parses `name(arguments…)` for a name in ``functionNames``.
    private mutating func parseFunction() throws(PredicateFormatError) -> FormatOperand {
        let name = current
        guard Self.functionNames.contains(name.text) else {
            throw error(
                .unknownOperator, "Unknown function '\(name.text)'", at: name,
                expected: Self.functionNames.sorted().joined(separator: ", "))
        }
        advance()
        advance()
        return .function(name.text, try parseList(closing: ")"))
    }

    /// Parses `SUBQUERY(collection, $variable, predicate)` and any `.@operator` tail.
    private mutating func parseSubquery() throws(PredicateFormatError) -> FormatOperand {
        advance()
        try expect("(", "'(' after SUBQUERY")
        let collection = try parseOperand()
        try expect(",", "',' after the SUBQUERY collection")
        let variable = current
        guard variable.kind == .variable else { throw unexpected("a $variable naming each member") }
        advance()
        try expect(",", "',' after the SUBQUERY variable")
        let predicate = try requirePredicate(parseBinary(minimumPrecedence: 0))
        try expect(")", "')' closing SUBQUERY")
        let subquery = FormatOperand.subquery(collection: collection, variable: variable.text, predicate: predicate)
        return try parseKeyPathTail(FormatKeyPathBuilder(root: .operand(subquery)))
    }
}
