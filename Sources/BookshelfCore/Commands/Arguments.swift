import Foundation

/// A subcommand's `--option value` pairs and `--flag`s, checked against the options it accepts.
struct Arguments {
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments`; `options` take a value, `flags` don't.
    ///
    /// - Throws: `CommandError.usage` for an unknown option or a stray word, `CommandError.missingValue` for an
    ///   option without its value.
    init(_ arguments: [String], options: Set<String>, flags: Set<String> = ["--json"]) throws(CommandError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            if flags.contains(argument) {
                self.flags.insert(argument)
            } else if parts.count == 2, options.contains(parts[0]) {
                values[parts[0]] = parts[1]
            } else if options.contains(argument) {
                guard index + 1 < arguments.count else { throw .missingValue(argument) }
                values[argument] = arguments[index + 1]
                index += 1
            } else {
                let known = (options.union(flags)).sorted().joined(separator: " ")
                throw .usage("unknown argument '\(argument)' (expected: \(known))")
            }
            index += 1
        }
    }

    /// The value of `option`, if given.
    subscript(option: String) -> String? { values[option] }

    /// Whether `flag` was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The value of a required `option`, named `field` in the error.
    ///
    /// - Throws: `CommandError.missingField(field)` when the option is missing or empty.
    func required(_ option: String, field: String) throws(CommandError) -> String {
        guard let value = values[option], !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .missingField(field)
        }
        return value
    }

    /// The value of `option` as an integer, or `fallback` when absent.
    ///
    /// - Throws: `CommandError.invalidValue` when it isn't an integer.
    func integer(_ option: String, default fallback: Int) throws(CommandError) -> Int {
        guard let text = values[option] else { return fallback }
        guard let value = Int(text) else { throw .invalidValue(option: option, value: text, expected: "an integer") }
        return value
    }

    /// The value of `option` as a `YYYY-MM-DD` day, or `fallback` when absent.
    ///
    /// - Throws: `CommandError.invalidValue` when it isn't a day.
    func day(_ option: String, default fallback: Date) throws(CommandError) -> Date {
        guard let text = values[option] else { return fallback }
        guard let date = DayFormat.date(text) else { throw .invalidValue(option: option, value: text, expected: "YYYY-MM-DD") }
        return date
    }
}
