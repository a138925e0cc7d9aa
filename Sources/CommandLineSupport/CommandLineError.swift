/// Why a command line was refused; its description names the argument and what was expected.
package enum CommandLineError: Error, Equatable, CustomStringConvertible {
    /// An option the tool does not know, with the ones it accepts.
    case unknownOption(String, accepted: [String])
    /// A word where an option was expected, with the options accepted.
    case unexpectedArgument(String, accepted: [String])
    /// An option given as the last argument, without its value.
    case missingValue(option: String)
    /// A flag written `--flag=value`; flags take no value.
    case unexpectedValue(flag: String)
    /// A required option that was not given.
    case missingOption(String)
    /// An option whose value is not what it takes.
    case invalidValue(option: String, value: String, expected: String)
    /// A subcommand the tool does not have, with the ones it has.
    case unknownCommand(String, commands: [String])
    /// No subcommand was given.
    case missingCommand(commands: [String])

    package var description: String {
        switch self {
        case .unknownOption(let option, let accepted):
            "unknown option '\(option)'" + Self.expecting(accepted)
        case .unexpectedArgument(let word, let accepted):
            "unexpected argument '\(word)'" + Self.expecting(accepted)
        case .missingValue(let option): "\(option) needs a value"
        case .unexpectedValue(let flag): "\(flag) takes no value"
        case .missingOption(let option): "missing \(option)"
        case .invalidValue(let option, let value, let expected):
            "invalid value '\(value)' for \(option): expected \(expected)"
        case .unknownCommand(let command, let commands):
            "unknown command '\(command)' (commands: \(commands.joined(separator: ", ")))"
        case .missingCommand(let commands): "missing command (commands: \(commands.joined(separator: ", ")))"
        }
    }

    private static func expecting(_ accepted: [String]) -> String {
        accepted.isEmpty ? " (this command takes no options)" : " (expected: \(accepted.joined(separator: " ")))"
    }
}
