/// A tool's `--option value` / `--option=value` pairs and `--flag`s, checked against what the tool accepts.
///
/// Unknown options, stray words, flags given a value and options missing theirs are refused with a
/// `CommandLineError` naming the argument, so a typo never silently runs with defaults.
package struct CommandLineArguments: Sendable {
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments` (after the program name and any subcommand).
    ///
    /// - Parameters:
    ///   - options: the options that take a value, spelled with their dashes (`"--rows"`).
    ///   - flags: the options that take none (`"--json"`).
    /// - Throws: `CommandLineError` for an unknown option, a stray word, a flag with `=value`, or an option
    ///   without its value.
    package init(_ arguments: [String], options: Set<String>, flags: Set<String> = []) throws(CommandLineError) {
        let accepted = options.union(flags).sorted()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if flags.contains(argument) {
                self.flags.insert(argument)
                continue
            }
            if options.contains(argument) {
                guard let value = remaining.popFirst() else { throw .missingValue(option: argument) }
                values[argument] = value
                continue
            }
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                let name = String(argument[..<equals])
                let value = String(argument[argument.index(after: equals)...])
                if options.contains(name) {
                    values[name] = value
                    continue
                }
                if flags.contains(name) { throw .unexpectedValue(flag: name) }
            }
            throw argument.hasPrefix("-")
                ? .unknownOption(argument, accepted: accepted)
                : .unexpectedArgument(argument, accepted: accepted)
        }
    }

    /// The value of `option`, if given.
    package subscript(option: String) -> String? { values[option] }

    /// Whether `flag` was given.
    package func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The value of a required `option`.
    ///
    /// - Throws: `CommandLineError.missingOption` when it was not given.
    package func required(_ option: String) throws(CommandLineError) -> String {
        guard let value = values[option] else { throw .missingOption(option) }
        return value
    }

    /// The value of `option` as a whole number of at least `minimum`, or `fallback` when absent.
    ///
    /// - Throws: `CommandLineError.invalidValue` when it is not such a number.
    package func integer(_ option: String, default fallback: Int, minimum: Int = 0) throws(CommandLineError) -> Int {
        guard let text = values[option] else { return fallback }
        guard let value = Int(text), value >= minimum else {
            throw .invalidValue(option: option, value: text, expected: "a whole number of at least \(minimum)")
        }
        return value
    }

    /// The value of `option` as a non-negative number, or `fallback` when absent.
    ///
    /// - Throws: `CommandLineError.invalidValue` when it is not such a number.
    package func number(_ option: String, default fallback: Double) throws(CommandLineError) -> Double {
        guard let text = values[option] else { return fallback }
        guard let value = Double(text), value.isFinite, value >= 0 else {
            throw .invalidValue(option: option, value: text, expected: "a number of at least 0")
        }
        return value
    }
}
