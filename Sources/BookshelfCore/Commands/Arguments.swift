import CommandLineSupport
import Foundation

/// A subcommand's `--option value` pairs and `--flag`s, checked against the options it accepts.
struct Arguments {
    private let parsed: CommandLineArguments

    /// Parses `arguments`; `options` take a value (`--title T` or `--title=T`), `flags` don't.
    ///
    /// - Throws: `CommandError.usage` for an unknown option or a stray word, `CommandError.missingValue` for an
    ///   option without its value.
    init(_ arguments: [String], options: Set<String>, flags: Set<String> = ["--json"]) throws(CommandError) {
        do {
            parsed = try CommandLineArguments(arguments, options: options, flags: flags)
        } catch {
            switch error {
            case .missingValue(let option): throw .missingValue(option)
            case .invalidValue(let option, let value, let expected):
                throw .invalidValue(option: option, value: value, expected: expected)
            default: throw .usage(error.description)
            }
        }
    }

    /// The value of `option`, if given.
    subscript(option: String) -> String? { parsed[option] }

    /// Whether `flag` was given.
    func has(_ flag: String) -> Bool { parsed.has(flag) }

    /// The value of a required `option`, named `field` in the error.
    ///
    /// - Throws: `CommandError.missingField(field)` when the option is missing or empty.
    func required(_ option: String, field: String) throws(CommandError) -> String {
        guard let value = parsed[option], !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .missingField(field)
        }
        return value
    }

    /// The value of `option` as an integer, or `fallback` when absent.
    ///
    /// - Throws: `CommandError.invalidValue` when it isn't an integer.
    func integer(_ option: String, default fallback: Int) throws(CommandError) -> Int {
        guard let text = parsed[option] else { return fallback }
        guard let value = Int(text) else { throw .invalidValue(option: option, value: text, expected: "an integer") }
        return value
    }

    /// The value of `option` as a `YYYY-MM-DD` day, or `fallback` when absent.
    ///
    /// - Throws: `CommandError.invalidValue` when it isn't a day.
    func day(_ option: String, default fallback: Date) throws(CommandError) -> Date {
        guard let text = parsed[option] else { return fallback }
        guard let date = DayFormat.date(text) else {
            throw .invalidValue(option: option, value: text, expected: "YYYY-MM-DD")
        }
        return date
    }
}
