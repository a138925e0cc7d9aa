import Foundation
import Strata
import Testing
@testable import StrataTestFixtures

/// Differential fuzzing of fetches over unsaved changes: after random inserts, changes, deletes and batch deletes,
/// a fetch (random predicate, sort, limit and offset) and `fetchCount` return exactly what the same fetch returns
/// once the changes are saved, or are refused (with a `StrataError`) either way.
@Suite struct PendingFetchFuzzTests {
    typealias Generator = PredicateFuzzTests.Generator

    private static let sorts: [(String, SortDescriptor<FuzzRow>)] = [
        ("d", SortDescriptor(\.d)), ("od", SortDescriptor(\.od)), ("f", SortDescriptor(\.f, order: .reverse)),
        ("i", SortDescriptor(\.i)),
        ("u", SortDescriptor(\.u, order: .reverse)), ("o", SortDescriptor(\.o)), ("s", SortDescriptor(\.s)),
        ("t", SortDescriptor(\.t, order: .reverse)), ("date", SortDescriptor(\.date)), ("dec", SortDescriptor(\.dec)),
        ("serial", SortDescriptor(\.serial, order: .reverse)),
        ("persistentModelID", SortDescriptor(\.persistentModelID, order: .reverse)),
    ]

    /// Copies one attribute from the second row onto the first.
    private static let copies: [@Sendable (FuzzRow, FuzzRow) -> Void] = [
        { $0.d = $1.d }, { $0.f = $1.f }, { $0.i = $1.i }, { $0.u = $1.u }, { $0.o = $1.o }, { $0.s = $1.s },
        { $0.t = $1.t }, { $0.date = $1.date }, { $0.dec = $1.dec }, { $0.flag = $1.flag }, { $0.kind = $1.kind },
        { $0.od = $1.od },
    ]

    /// Copies some of `source`'s attributes (chosen by the bits of `mask`) onto `target`.
    private static func change(_ target: FuzzRow, from source: FuzzRow, mask: UInt64) {
        for (bit, copy) in copies.enumerated() where mask & (1 << UInt64(bit)) != 0 { copy(target, source) }
    }

    /// A random descriptor and its description.
    private static func descriptor(_ trees: inout FuzzTrees<Generator>) -> (FetchDescriptor<FuzzRow>, String) {
        var descriptor = FetchDescriptor<FuzzRow>()
        var text: [String] = []
        switch trees.generator.next() % 4 {
        case 0: break
        case 1:
            let tree = FormatFuzzTests.tree(depth: 2, &trees.generator)
            descriptor.formatPredicate = tree
            text.append("format \(tree)")
        default:
            let tree = trees.tree(depth: 2)
            descriptor.predicate = tree.predicate
            text.append("predicate \(tree)")
        }
        for _ in 0..<Int(trees.generator.next() % 3) {
            let (name, sort) = FuzzPools.pick(sorts, &trees.generator)
            descriptor.sortBy.append(sort)
            text.append("sort \(name) \(sort.order)")
        }
        if trees.generator.next() % 3 != 0 {
            descriptor.fetchLimit = Int(trees.generator.next() % 12)
            text.append("limit \(descriptor.fetchLimit ?? 0)")
        }
        if trees.generator.next() % 2 == 0 {
            descriptor.fetchOffset = Int(trees.generator.next() % 12)
            text.append("offset \(descriptor.fetchOffset ?? 0)")
        }
        return (descriptor, text.joined(separator: ", "))
    }

    /// Applies random unsaved changes to a context holding `rows`, and describes them.
    private static func applyPendingChanges(
        _ context: ModelContext, rows: [FuzzRow], _ trees: inout FuzzTrees<Generator>
    ) throws -> String {
        var log: [String] = []
        for row in rows {
            switch trees.generator.next() % 8 {
            case 0:
                context.delete(row)
                log.append("delete #\(row.serial)")
            case 1, 2:
                let mask = trees.generator.next()
                change(row, from: FuzzPools.row(row.serial, using: &trees.generator), mask: mask)
                log.append("change #\(row.serial) to \(row.summary)")
            default: continue
            }
        }
        for serial in rows.count..<(rows.count + Int(trees.generator.next() % 8)) {
            let row = FuzzPools.row(serial, using: &trees.generator)
            context.insert(row)
            log.append("insert \(row.summary)")
        }
        if trees.generator.next() % 4 == 0 {
            let tree = trees.tree(depth: 1)
            do {
                try context.delete(model: FuzzRow.self, where: tree.predicate)
                log.append("delete where \(tree)")
            } catch is StrataError {}
        }
        return log.joined(separator: "\n")
    }

    private struct Answer: Equatable {
        var serials: [Int]
        var count: Int
    }

    /// The fetch's results and count, or `nil` when the store refuses it (or a format argument is refused).
    private static func answer(_ descriptor: FetchDescriptor<FuzzRow>, in context: ModelContext) throws -> Answer? {
        do {
            return Answer(
                serials: try context.fetch(descriptor).map(\.serial), count: try context.fetchCount(descriptor))
        } catch is StrataError {
            return nil
        } catch is PredicateFormatError {
            return nil
        }
    }

    @Test func pendingChangesFetchAsSaved() throws {
        let seed = PredicateFuzzTests.seed
        var trees = FuzzTrees(generator: Generator(state: seed &+ 19))
        let iterations = Swift.max(1, PredicateFuzzTests.iterations / 3)
        var failures: [String] = []
        var refusals = 0
        for iteration in 0..<iterations where failures.count < 3 {
            let container = try ModelContainer(
                for: FuzzRow.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
            let context = ModelContext(container)
            let rows = (0..<Int(8 + trees.generator.next() % 24)).map { FuzzPools.row($0, using: &trees.generator) }
            for row in rows { context.insert(row) }
            try context.save()
            let changes = try Self.applyPendingChanges(context, rows: rows, &trees)
            let descriptors = (0..<4).map { _ in Self.descriptor(&trees) }
            let pending = try descriptors.map { try Self.answer($0.0, in: context) }
            try context.save()
            for ((descriptor, text), before) in zip(descriptors, pending) {
                let saved = try Self.answer(descriptor, in: context)
                guard let before, let saved else {
                    refusals += 1
                    continue
                }
                if before != saved {
                    failures.append(
                        """
                        \(text): unsaved \(before), saved \(saved) (seed \(seed), iteration \(iteration))
                        after \(changes)
                        """)
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
        #expect(refusals < iterations * 2, "\(refusals) of \(iterations * 4) refused")
    }
}
