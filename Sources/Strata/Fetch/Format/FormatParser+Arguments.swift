import Foundation

extension FormatParser {
    /// Binds the current `%` specifier to the next argument.
    ///
    /// - `%@`: any value ``FormatValue/init(argument:)`` accepts.
    /// - `%K`: a `String` or `Substring` key path, split at dots (`@` components become collection
    ///   operators). Keys are kept verbatim; the SQL translator checks them against the schema.
    /// - `%d %i %u %ld %li %lu %lld %lli %llu`: an integer or `Bool` (as 0 / 1).
    /// - `%f %lf`: a floating-point number, integer or `Decimal`.
    mutating func parseArgument() throws(PredicateFormatError) -> FormatOperand {
        let token = current
        let position = argumentIndex
        guard position < arguments.count else {
            throw error(
                .missingArgument(index: position),
                "Missing argument for '%\(token.text)': only \(arguments.count) argument(s) given",
                at: token, expected: "an argument")
        }
        let argument = arguments[position]
        argumentIndex += 1
        advance()
        switch token.text {
        case "K":
            return try keyPathArgument(argument, token: token)
        case "@":
            guard let value = FormatValue(argument: argument) else {
                throw mismatch(token, argument, expected: "a Bool, number, String, Date, UUID, Data, URL, array or nil")
            }
            return .value(value)
        case "f", "lf":
            switch FormatValue(argument: argument) {
            case .int(let integer)?: return .value(.double(Double(integer)))
            case .double(let double)?: return .value(.double(double))
            case .decimal(let decimal)?: return .value(.decimal(decimal))
            default: throw mismatch(token, argument, expected: "a floating-point number")
            }
        default:
            switch FormatValue(argument: argument) {
            case .int(let integer)?: return .value(.int(integer))
            case .bool(let bool)?: return .value(.int(bool ? 1 : 0))
            default: throw mismatch(token, argument, expected: "an integer that fits Int64")
            }
        }
    }

    private mutating func keyPathArgument(
        _ argument: Any, token: FormatToken
    ) throws(PredicateFormatError) -> FormatOperand {
        let text: String
        switch argument {
        case let string as String: text = string
        case let substring as Substring: text = String(substring)
        default: throw mismatch(token, argument, expected: "String (a key path)")
        }
        let components = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !components.contains(where: \.isEmpty) else {
            let got = text.isEmpty ? "an empty String" : "\"\(text)\""
            throw mismatch(token, argument, expected: "a key path without empty components", got: got)
        }
        var builder = FormatKeyPathBuilder(root: .object)
        for component in components {
            if let failure = builder.append(String(component)) {
                throw error(.unknownOperator, FormatKeyPathBuilder.message(for: failure), at: token)
            }
        }
        return try parseKeyPathTail(builder)
    }

    private func mismatch(
        _ token: FormatToken, _ argument: Any, expected: String, got: String? = nil
    ) -> PredicateFormatError {
        let index = argumentIndex - 1
        let got = got ?? FormatValue.typeName(of: argument)
        return error(
            .argumentTypeMismatch(index: index, expected: expected, got: got),
            "Argument \(index) for '%\(token.text)' must be \(expected), not \(got)",
            at: token, expected: expected)
    }
}
