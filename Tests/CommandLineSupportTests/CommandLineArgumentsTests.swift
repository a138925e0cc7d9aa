import CommandLineSupport
import Testing

@Suite("Command-line arguments of the tools")
struct CommandLineArgumentsTests {
    @Test("Options take their value after a space or an equals sign; flags take none")
    func spellings() throws {
        let parsed = try CommandLineArguments(
            ["--rows", "10", "--seed=42", "--json", "--where=title == 'a=b'"],
            options: ["--rows", "--seed", "--where"], flags: ["--json"])
        #expect(parsed["--rows"] == "10")
        #expect(parsed["--seed"] == "42")
        #expect(parsed["--where"] == "title == 'a=b'")
        #expect(parsed.has("--json"))
        #expect(try parsed.integer("--rows", default: 1) == 10)
        #expect(try parsed.integer("--absent", default: 7) == 7)
    }

    @Test("An unknown option is refused, naming it and what is accepted")
    func unknownOption() {
        #expect(throws: CommandLineError.unknownOption("--rowz", accepted: ["--rows"])) {
            try CommandLineArguments(["--rowz", "10"], options: ["--rows"])
        }
        #expect(throws: CommandLineError.unknownOption("--rowz=10", accepted: ["--rows"])) {
            try CommandLineArguments(["--rowz=10"], options: ["--rows"])
        }
        let message = CommandLineError.unknownOption("--rowz", accepted: ["--rows"]).description
        #expect(message == "unknown option '--rowz' (expected: --rows)")
    }

    @Test("A stray word, a missing value and a flag given a value are refused")
    func malformed() {
        #expect(throws: CommandLineError.unexpectedArgument("10", accepted: ["--rows"])) {
            try CommandLineArguments(["10"], options: ["--rows"])
        }
        #expect(throws: CommandLineError.missingValue(option: "--rows")) {
            try CommandLineArguments(["--rows"], options: ["--rows"])
        }
        #expect(throws: CommandLineError.unexpectedValue(flag: "--json")) {
            try CommandLineArguments(["--json=yes"], options: [], flags: ["--json"])
        }
    }

    @Test("Numbers are checked: whole, at least the minimum, finite")
    func numbers() throws {
        let parsed = try CommandLineArguments(
            ["--rows", "ten", "--only", "0", "--seconds", "-1", "--kills", "3"],
            options: ["--rows", "--only", "--seconds", "--kills"])
        #expect(
            throws: CommandLineError.invalidValue(
                option: "--rows", value: "ten", expected: "a whole number of at least 0")
        ) {
            try parsed.integer("--rows", default: 1)
        }
        #expect(
            throws: CommandLineError.invalidValue(
                option: "--only", value: "0", expected: "a whole number of at least 1")
        ) {
            try parsed.integer("--only", default: 1, minimum: 1)
        }
        #expect(
            throws: CommandLineError.invalidValue(option: "--seconds", value: "-1", expected: "a number of at least 0")
        ) {
            try parsed.number("--seconds", default: 1)
        }
        #expect(try parsed.integer("--kills", default: 0) == 3)
    }

    @Test("A required option that is absent is named")
    func required() throws {
        let parsed = try CommandLineArguments([], options: ["--store"])
        #expect(throws: CommandLineError.missingOption("--store")) { try parsed.required("--store") }
    }
}
