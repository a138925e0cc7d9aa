import Foundation
import Strata

/// `fuzz-format`: a deterministic mutation fuzzer of the format-predicate parser, translator and the SQL they make.
/// Each input is parsed, translated for `Entry` and fetched from an in-memory store of a few rows. A finding is a
/// crash (the process dies; the input is in `last-input`), an input taking over a second, memory above 1 GB, an
/// error message over 4,000 characters, or SQL that SQLite rejects as malformed (the translator's fault).
@MainActor
struct FuzzFormatCommand {
    let seconds: Double
    let seed: UInt64
    /// Where new corpus entries are written (inputs reaching a behaviour not seen before), if anywhere.
    let corpusDirectory: String?

    static let arguments: [any Sendable] = ["payload", "x", 3, [1, 2, 3], 2.5, "amount"]
    static let maximumSeconds = 1.0
    static let maximumErrorLength = 4_000
    static let maximumResidentBytes = 1 << 30

    func run() throws -> Bool {
        let container = try ModelContainer(
            for: Schema(workloadModels), configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        try Self.fillSample(context)
        guard let entity = container.schema.entity(named: "Entry") else { throw TortureError("no Entry entity") }
        if let corpusDirectory {
            try FileManager.default.createDirectory(atPath: corpusDirectory, withIntermediateDirectories: true)
        }
        var pool = FormatMutator.seeds + Self.corpus(in: corpusDirectory)
        var mutator = FormatMutator(random: SplitMix(seed: seed))
        var signatures = Set<String>()
        var executions = 0, findings = 0, written = 0, parsed = 0, translated = 0, fetched = 0
        let lastInput = NSTemporaryDirectory() + "strata-torture-fuzz-last-input"
        let started = Date()
        while Date().timeIntervalSince(started) < seconds {
            let input = mutator.mutate(
                pool[mutator.random.below(pool.count)], other: pool[mutator.random.below(pool.count)])
            try? input.write(toFile: lastInput, atomically: false, encoding: .utf8)
            let begun = Date()
            let outcome = Self.execute(input, entity: entity, context: context)
            let elapsed = Date().timeIntervalSince(begun)
            executions += 1
            switch outcome.stage {
            case .fetched: (parsed, translated, fetched) = (parsed + 1, translated + 1, fetched + 1)
            case .translated: (parsed, translated) = (parsed + 1, translated + 1)
            case .parsed: parsed += 1
            case .refused: break
            }
            var problems = outcome.problems
            if elapsed > Self.maximumSeconds { problems.append("took \(String(format: "%.2f", elapsed)) s") }
            if executions % 500 == 0, let resident = Self.residentBytes(), resident > Self.maximumResidentBytes {
                problems.append("resident memory \(resident >> 20) MB")
            }
            if !problems.isEmpty {
                findings += 1
                report(
                    "finding: \(problems.joined(separator: "; ")) for input (\(input.utf8.count) bytes): \(input.prefix(300))"
                )
            }
            if signatures.insert(outcome.signature).inserted, input.utf8.count <= 2_000 {
                pool.append(input)
                if let corpusDirectory, input.utf8.count <= 400, written < 40 {
                    try? input.write(
                        toFile: "\(corpusDirectory)/\(String(Self.hash(input), radix: 16)).txt", atomically: true,
                        encoding: .utf8)
                    written += 1
                }
            }
        }
        try? FileManager.default.removeItem(atPath: lastInput)
        report(
            "fuzz-format: \(executions) inputs in \(Int(seconds)) s (\(parsed) parsed, \(translated) translated, \(fetched) fetched),"
                + " \(signatures.count) distinct behaviours, \(findings) findings, \(written) corpus entries written,"
                + " peak memory \((Self.peakResidentBytes() ?? 0) >> 20) MB")
        return findings == 0
    }

    /// How far an input got, what went wrong with it, and a coarse signature of its behaviour.
    struct Outcome {
        enum Stage { case refused, parsed, translated, fetched }
        var stage: Stage
        var problems: [String] = []
        var signature: String
    }

    /// Parses, translates and fetches one input, checking each error's length and SQLite's view of the SQL.
    static func execute(_ input: String, entity: Schema.Entity, context: ModelContext) -> Outcome {
        let predicate = FormatPredicate(format: input, argumentArray: arguments(for: input))
        if let error = predicate.error {
            let description = error.description
            var outcome = Outcome(stage: .refused, signature: "parse:\(error.kind)")
            if description.count > maximumErrorLength {
                outcome.problems.append("parse error of \(description.count) characters")
            }
            return outcome
        }
        let sql: String
        do {
            sql = try FormatTranslator.translate(predicate, entity: entity).sql.render(in: SQLiteDialect()).sql
        } catch {
            let description = "\(error)"
            var outcome = Outcome(stage: .parsed, signature: "translate:" + shape(of: description).prefix(60))
            if description.count > maximumErrorLength {
                outcome.problems.append("translation error of \(description.count) characters")
            }
            return outcome
        }
        do {
            _ = try context.fetchCount(FetchDescriptor<Entry>(predicate: predicate))
            return Outcome(stage: .fetched, signature: "sql:" + shape(of: sql))
        } catch {
            let description = "\(error)"
            var outcome = Outcome(stage: .translated, signature: "fetch:" + shape(of: description).prefix(60))
            if description.count > maximumErrorLength {
                outcome.problems.append("fetch error of \(description.count) characters")
            }
            // SQLite refusing the statement's text is the translator's fault; an error while running it may be the data's.
            for sign in [
                "syntax error", "no such column", "no such table", "no such function", "parser stack overflow",
                "too many",
            ]
            where description.contains(sign) {
                outcome.problems.append("SQLite rejected the generated SQL (\(sign)): \(sql.prefix(300))")
            }
            return outcome
        }
    }

    /// As many of ``arguments`` (repeated) as the input has `%` specifiers (`%%` is none), so most inputs get
    /// past the argument count.
    static func arguments(for input: String) -> [any Sendable] {
        let count =
            input.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "%") ? 1 : 0) } - 2
            * input.components(separatedBy: "%%").count + 2
        return (0..<max(0, count)).map { arguments[$0 % arguments.count] }
    }

    /// Text with digits and quoted values removed, so inputs differing only in constants share a signature.
    static func shape(of text: String) -> String {
        String(text.unicodeScalars.filter { !CharacterSet.decimalDigits.contains($0) }.prefix(400).map(Character.init))
    }

    static func hash(_ text: String) -> UInt64 {
        var digest = Digest()
        digest.add(text)
        return digest.value
    }

    /// The corpus files in `directory` (`*.txt`).
    static func corpus(in directory: String?) -> [String] {
        guard let directory, let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            return []
        }
        return names.filter { $0.hasSuffix(".txt") }.sorted().compactMap {
            try? String(contentsOfFile: "\(directory)/\($0)", encoding: .utf8)
        }
    }

    /// A few rows so fetches run the SQL over data.
    static func fillSample(_ context: ModelContext) throws {
        let group = EntryGroup(slot: 1, name: "a")
        let tag = EntryTag(slot: 2, name: "b")
        context.insert(group)
        context.insert(tag)
        for slot in 3..<8 {
            let entry = Entry(slot: slot, batch: slot % 3, payload: "x\(slot)", amount: slot * 7)
            context.insert(entry)
            entry.group = slot % 2 == 0 ? group : nil
            entry.tags = slot % 3 == 0 ? [tag] : []
        }
        try context.save()
    }

    /// The process's resident memory now (`VmRSS`).
    static func residentBytes() -> Int? { statusField("VmRSS:") }

    /// The process's peak resident memory (`VmHWM`).
    static func peakResidentBytes() -> Int? { statusField("VmHWM:") }

    private static func statusField(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }
}
