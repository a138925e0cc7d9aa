import Foundation

/// Why a command line or a form was refused; its description is what bookshelf prints.
enum CommandError: Error, Equatable, CustomStringConvertible {
    /// A required field is empty or its option was not given.
    case missingField(String)
    /// An option was given without its value.
    case missingValue(String)
    /// An option or value bookshelf doesn't know.
    case invalidValue(option: String, value: String, expected: String)
    /// An unknown subcommand or option.
    case usage(String)
    /// A `--where` format that doesn't parse; the text is the parser's description with its caret.
    case invalidWhere(String)
    /// A `--where` that parses but that the store can't run, such as one naming an unknown key.
    case unsupportedWhere(String)

    var description: String {
        switch self {
        case .missingField(let field): "missing required field: \(field)"
        case .missingValue(let option): "\(option) needs a value"
        case .invalidValue(let option, let value, let expected):
            "invalid value '\(value)' for \(option): expected \(expected)"
        case .usage(let text): text
        case .invalidWhere(let text): "invalid --where: \(text)"
        case .unsupportedWhere(let text): "unsupported --where: \(text)"
        }
    }
}
