import Foundation
import Strata
@testable import StrataTestFixtures

/// Format leaves across relationships: key paths through the to-one `partner` (one and two hops), `ANY`, `ALL`
/// and `NONE` over the to-many `items`, `@count`, `SUBQUERY(…).@count`, the `@sum`, `@avg`, `@max` and `@min`
/// aggregates over NaN-holding `Double`s, and arithmetic on the row's own `Double`.
extension FormatFuzzTests {
    static func relationshipLeaf<G: RandomNumberGenerator>(_ generator: inout G) -> FormatPredicate {
        let op = FuzzPools.pick(Array(operators.prefix(6)), &generator)
        // Format arguments are finite (NaN and infinities are refused): NaN only comes from the stored values.
        let finite = FuzzPools.doubles.filter(\.isFinite)
        let double = FuzzPools.pick(finite, &generator)
        switch generator.next() % 10 {
        case 0:
            return FormatPredicate(format: "partner.weight \(op) %@", double)
        case 1:
            let word = FuzzPools.pick(FuzzPools.strings, &generator)
            return FormatPredicate(format: "partner.label \(FuzzPools.pick(operators, &generator)) %@", word)
        case 2:
            return FormatPredicate(format: generator.next() % 2 == 0 ? "partner == nil" : "partner.holder != nil")
        case 3:
            return FormatPredicate(format: "partner.holder.serial \(op) %@", FuzzPools.pick([0, 1, 5], &generator))
        case 4:
            let quantifier = FuzzPools.pick(["ANY", "ALL", "NONE"], &generator)
            if generator.next() % 2 == 0 {
                return FormatPredicate(format: "\(quantifier) items.weight \(op) %@", double)
            }
            let word = FuzzPools.pick(FuzzPools.strings, &generator)
            return FormatPredicate(
                format: "\(quantifier) items.label \(FuzzPools.pick(operators, &generator)) %@", word)
        case 5:
            return FormatPredicate(format: "items.@count \(op) %@", Int(generator.next() % 4))
        case 6:
            let inner = FuzzPools.pick(Array(operators.prefix(6)), &generator)
            return FormatPredicate(
                format: "SUBQUERY(items, $x, $x.weight \(inner) %@).@count \(op) %@", double, Int(generator.next() % 3))
        case 7, 8:
            let aggregate = FuzzPools.pick(["@sum", "@avg", "@max", "@min"], &generator)
            let key = FuzzPools.pick(["weight", "weight", "n"], &generator)
            return FormatPredicate(format: "items.\(aggregate).\(key) \(op) %@", double)
        default:
            let arithmetic = FuzzPools.pick(["+", "-", "*", "/"], &generator)
            return FormatPredicate(format: "d \(arithmetic) %@ \(op) %@", FuzzPools.pick(finite, &generator), double)
        }
    }
}
