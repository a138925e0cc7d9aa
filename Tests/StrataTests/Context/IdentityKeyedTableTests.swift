import Strata
import Testing

@Suite("Identity-keyed table")
struct IdentityKeyedTableTests {
    /// Objects whose identities serve as keys, as entities' do.
    private final class Key {}

    /// Keeps its identity, so a test can tell whether a value was copied on write.
    private final class Box {
        var number: Int
        init(_ number: Int) { self.number = number }
    }

    @Test("Values are found, replaced and removed as a dictionary's are, across growth")
    func behavesAsADictionary() {
        let keys = (0..<200).map { _ in Key() }
        var table = IdentityKeyedTable<Int>()
        var oracle: [ObjectIdentifier: Int] = [:]
        var generator = SystemRandomNumberGenerator()
        for step in 0..<5_000 {
            let key = ObjectIdentifier(keys[Int.random(in: 0..<keys.count, using: &generator)])
            switch step % 4 {
            case 0, 1:
                table[key] = step
                oracle[key] = step
            case 2:
                #expect(table.removeValue(forKey: key) == oracle.removeValue(forKey: key))
            default:
                table[key, default: 0] += 1
                oracle[key, default: 0] += 1
            }
        }
        for key in keys.map(ObjectIdentifier.init) { #expect(table[key] == oracle[key]) }
        #expect(table.values.sorted() == oracle.values.sorted())
        #expect(Set(table.keysWithValues) == Set(oracle.keys) && table.keysWithValues.count == oracle.count)
        table.removeAll()
        #expect(keys.allSatisfy { table[ObjectIdentifier($0)] == nil })
        #expect(Array(table.values).isEmpty)
    }

    @Test("A value changed through the table is the value stored")
    func changesInPlace() {
        let key = Key()
        var table = IdentityKeyedTable<[Box]>()
        let box = Box(1)
        table[ObjectIdentifier(key), default: []].append(box)
        table[ObjectIdentifier(key)]?.append(Box(2))
        table[ObjectIdentifier(key), default: []][0].number = 10
        #expect(table[ObjectIdentifier(key)]?.map(\.number) == [10, 2])
        #expect(table[ObjectIdentifier(key)]?.first === box)
        #expect(table.removeValue(forKey: ObjectIdentifier(key))?.count == 2)
        #expect(table[ObjectIdentifier(key)] == nil)
    }
}
