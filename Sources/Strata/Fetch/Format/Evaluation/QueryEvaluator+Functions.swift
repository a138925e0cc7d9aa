import Foundation

extension QueryEvaluator {
    /// A `QueryFunction` call on evaluated arguments, with the semantics of the SQL function the
    /// store registers (the same `StrataText` code): `NULL` in, `NULL` out, except `coalesce`.
    ///
    /// - Throws: `StrataError.storeFailure` for an invalid regular expression or an arithmetic overflow.
    func call(_ function: QueryFunction, _ arguments: [StoredValue]) throws -> StoredValue {
        if case .coalesce = function {
            return arguments.first { $0 != .null } ?? .null
        }
        if arguments.contains(.null) { return .null }
        let text = { (index: Int) in index < arguments.count ? SQLiteValueConversion.text(arguments[index]) : "" }
        let integer = { (index: Int) in index < arguments.count ? SQLiteValueConversion.integer(arguments[index]) : 0 }
        let options = { (index: Int) in StrataTextOptions(rawValue: integer(index)) }
        switch function {
        case .fold: return .text(StrataText.fold(text(0), options: options(1)))
        case .contains: return .sqlBool(StrataText.contains(text(0), text(1), options: options(2)))
        case .beginsWith: return .sqlBool(StrataText.begins(text(0), with: text(1), options: options(2)))
        case .endsWith: return .sqlBool(StrataText.ends(text(0), with: text(1), options: options(2)))
        case .like: return .sqlBool(StrataText.like(text(0), text(1), options: options(2)))
        case .matches:
            do throws(StrataFunctionError) {
                // A cache for this evaluation only: an evaluator judges one row, and making one per row would
                // cost every evaluation of a predicate without `MATCHES` an allocation.
                return .sqlBool(try StrataRegexCache().matches(text(0), pattern: text(1), options: options(2)))
            } catch {
                throw StrataError.storeFailure(operation: "evaluate a predicate", reason: error.message)
            }
        case .localizedStandardContains: return .sqlBool(StrataText.localizedStandardContains(text(0), text(1)))
        case .compare:
            guard let ordering = StrataStringOrdering(rawValue: integer(2)) else {
                throw StrataError.storeFailure(
                    operation: "evaluate a predicate", reason: "unknown string ordering \(integer(2))")
            }
            return .integer(Int64(StrataText.compare(text(0), text(1), ordering: ordering).rawValue))
        case .characterCount: return .integer(Int64(text(0).count))
        case .characterContains: return .sqlBool(Self.elementsContain(text(0), text(1)))
        case .characterBeginsWith: return .sqlBool(text(0).starts(with: text(1)))
        case .checkedArithmetic(let op):
            let low = integer(2)
            return try arithmetic(op, .integer(integer(0)), .integer(integer(1)), bounds: low...max(low, integer(3)))
        case .floatingArithmetic(let op, let single):
            let real = { (index: Int) in SQLiteValueConversion.real(arguments[index]) }
            return StoredArithmetic.floating(op, real(0), real(1), single: single)
        case .coalesce: return arguments.first { $0 != .null } ?? .null
        case .compositeField(let path): return path.extract(from: arguments[0])
        case .compositeJSON: return CompositeFieldPath.canonicalJSON(arguments[0])
        case .compositeContains(let path): return .sqlBool(path.elements(in: arguments[0]).contains(arguments[1]))
        case .power:
            let number = { (index: Int) in SQLiteValueConversion.number(arguments[index])?.real ?? 0 }
            return StoredArithmetic.power(number(0), number(1))
        }
    }

    /// `Collection.contains(_:)` over Characters, as `strata_character_contains` computes it.
    private static func elementsContain<C: Collection>(_ base: C, _ other: C) -> Bool where C.Element: Equatable {
        base.contains(other)
    }
}
