import Foundation
import Strata
@testable import StrataTestFixtures

/// A kind a `FuzzRow` has, stored by raw value.
enum FuzzKind: String, Codable, CaseIterable {
    case alpha, beta, gamma
}

/// The model the differential fuzzer queries: one attribute of each stored type, filled from pools of awkward values.
@Model
final class FuzzRow {
    var serial: Int
    var d: Double
    var od: Double?
    var f: Float
    var i: Int
    var u: UInt64
    var o: Int?
    var s: String
    var t: String?
    var date: Date
    var dec: Decimal
    var uuid: UUID
    var data: Data
    var flag: Bool
    var kind: FuzzKind
    /// A to-one relationship without an inverse: often nil, sometimes another row's item.
    var partner: FuzzItem? = nil
    @Relationship(inverse: \FuzzItem.holder) var items: [FuzzItem] = []

    init(
        serial: Int, d: Double, od: Double? = nil, f: Float, i: Int, u: UInt64, o: Int?, s: String, t: String?,
        date: Date,
        dec: Decimal, uuid: UUID, data: Data, flag: Bool, kind: FuzzKind
    ) {
        self.serial = serial
        self.d = d
        self.od = od
        self.f = f
        self.i = i
        self.u = u
        self.o = o
        self.s = s
        self.t = t
        self.date = date
        self.dec = dec
        self.uuid = uuid
        self.data = data
        self.flag = flag
        self.kind = kind
    }

    /// An unattached copy of the attributes (no relationships), so `evaluate` sees the values as written, not as
    /// read back from the store.
    func copy() -> FuzzRow {
        FuzzRow(
            serial: serial, d: d, od: od, f: f, i: i, u: u, o: o, s: s, t: t, date: date, dec: dec, uuid: uuid,
            data: data,
            flag: flag, kind: kind)
    }

    var summary: String {
        "#\(serial) d=\(d) od=\(String(describing: od)) f=\(f) i=\(i) u=\(u) o=\(String(describing: o)) s=\(s.debugDescription) "
            + "t=\(String(describing: t?.debugDescription)) date=\(date.timeIntervalSinceReferenceDate) dec=\(dec) "
            + "uuid=\(uuid) data=\(Array(data)) flag=\(flag) kind=\(kind) partner=\(partner?.summary ?? "nil") "
            + "items=[\(items.map(\.summary).joined(separator: ", "))]"
    }
}

/// The model a `FuzzRow` relates to: a few awkward values, held by at most one row's `items`.
@Model
final class FuzzItem {
    var serial: Int
    var weight: Double
    var n: Int
    var label: String
    var note: String?
    var holder: FuzzRow?

    init(serial: Int, weight: Double, n: Int, label: String, note: String?) {
        self.serial = serial
        self.weight = weight
        self.n = n
        self.label = label
        self.note = note
    }

    /// An unattached copy of the attributes.
    func copy() -> FuzzItem { FuzzItem(serial: serial, weight: weight, n: n, label: label, note: note) }

    var summary: String {
        "item#\(serial)(weight=\(weight) n=\(n) label=\(label.debugDescription) note=\(String(describing: note?.debugDescription)))"
    }
}

/// The pools of awkward values rows and constants are drawn from.
enum FuzzPools {
    static let doubles: [Double] = [
        .nan, .infinity, -.infinity, 0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1, -1, 2.5, 0.1 + 0.2, 0.3, 1e-300,
    ]
    static let optionalDoubles: [Double?] = [nil, .nan, .infinity, -0.0, 0, 1, 2.5]
    static let floats: [Float] = [
        .nan, .infinity, -.infinity, 0, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1, 0.1, -2.5,
    ]
    static let ints: [Int] = [.min, .max, .min + 1, .max - 1, 0, -1, 1, 42]
    static let unsigned: [UInt64] = [0, 1, 42, UInt64(Int64.max), UInt64(Int64.max) + 1, .max]
    static let optionalInts: [Int?] = [nil, 0, -1, 7, .max, .min]
    static let strings: [String] = [
        "", " ", "\t\n", "a", "A", "Dune", "dune", "Café", "Cafe\u{301}", "straße", "STRASSE", "SS", "ß", "İ", "i", "I",
        "ı",
        "Σ", "σ", "ς", "👨‍👩‍👧", "👨", "%", "_", "a%b", "a_b", "*", "?", "\\", "'", "\"", "a\u{0}b", "\u{0}",
        String(repeating: "long", count: 500), "file2", "file10", "\u{301}",
    ]
    static let optionalStrings: [String?] = [nil, "", "a", "ß", "Cafe\u{301}", "%", "\u{0}"]
    static let dates: [Date] = [
        .distantPast, .distantFuture, Date(timeIntervalSinceReferenceDate: 0),
        Date(timeIntervalSinceReferenceDate: 0.0001),
        Date(timeIntervalSinceReferenceDate: -0.0001), Date(timeIntervalSinceReferenceDate: 1e-7),
        Date(timeIntervalSinceReferenceDate: 1234.5678901), Date(timeIntervalSince1970: 0),
    ]
    static let decimals: [Decimal] = [
        0, 1, -1, .greatestFiniteMagnitude, .leastFiniteMagnitude, .leastNonzeroMagnitude,
        Decimal(string: "0.1") ?? 0, Decimal(string: "1.10") ?? 0, Decimal(string: "1.1") ?? 0,
        Decimal(string: "123456789012345678901234567890.123") ?? 0, Decimal(string: "-0.000001") ?? 0,
    ]
    static let uuids: [UUID] = [
        UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
        UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)),
        UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)),
    ]
    static let datas: [Data] = [Data(), Data([0]), Data([0, 0, 1]), Data([1]), Data([255, 0])]

    /// A row whose every attribute is drawn from its pool.
    static func row<G: RandomNumberGenerator>(_ serial: Int, using generator: inout G) -> FuzzRow {
        FuzzRow(
            serial: serial, d: pick(doubles, &generator), od: pick(optionalDoubles, &generator),
            f: pick(floats, &generator), i: pick(ints, &generator),
            u: pick(unsigned, &generator), o: pick(optionalInts, &generator), s: pick(strings, &generator),
            t: pick(optionalStrings, &generator), date: pick(dates, &generator), dec: pick(decimals, &generator),
            uuid: pick(uuids, &generator), data: pick(datas, &generator), flag: Bool.random(using: &generator),
            kind: pick(FuzzKind.allCases, &generator))
    }

    /// Gives about a third of `rows` no items and the others one to three, and about half a partner drawn from all
    /// items (held or not): item serials start at 1000.
    static func relate<G: RandomNumberGenerator>(_ rows: [FuzzRow], using generator: inout G) {
        var items: [FuzzItem] = []
        for row in rows {
            let count = Int(generator.next() % 6)
            let start = items.count
            for offset in 0..<(count < 2 ? 0 : count - 2) {
                items.append(item(1000 + start + offset, using: &generator))
            }
            row.items = Array(items[start...])
        }
        let loose = (0..<4).map { item(2000 + $0, using: &generator) }
        for row in rows where generator.next() % 2 == 0 { row.partner = pick(items + loose, &generator) }
    }

    static func item<G: RandomNumberGenerator>(_ serial: Int, using generator: inout G) -> FuzzItem {
        FuzzItem(
            serial: serial, weight: pick(doubles, &generator), n: pick([0, 1, -1, 7, 42, .max], &generator),
            label: pick(strings, &generator), note: pick(optionalStrings, &generator))
    }

    /// Takes U+0000 out of every text of `rows` and their items, as PostgreSQL text can't hold it (saving it there
    /// throws).
    static func removeNUL(from rows: [FuzzRow]) {
        let clean = { (text: String) in text.replacingOccurrences(of: "\u{0}", with: "") }
        for row in rows {
            row.s = clean(row.s)
            row.t = row.t.map(clean)
            for item in row.items + [row.partner].compactMap({ $0 }) {
                item.label = clean(item.label)
                item.note = item.note.map(clean)
            }
        }
    }

    /// Unattached copies of `rows` and every item they reach, related as the originals are.
    static func copies(of rows: [FuzzRow]) -> [FuzzRow] {
        var items: [Int: FuzzItem] = [:]
        func copied(_ item: FuzzItem) -> FuzzItem {
            if let copy = items[item.serial] { return copy }
            let copy = item.copy()
            items[item.serial] = copy
            return copy
        }
        let copies = rows.map { $0.copy() }
        for (row, copy) in zip(rows, copies) { copy.items = row.items.map(copied) }
        for (row, copy) in zip(rows, copies) { copy.partner = row.partner.map(copied) }
        return copies
    }

    static func pick<T, G: RandomNumberGenerator>(_ pool: [T], _ generator: inout G) -> T {
        pool[Int(generator.next() % UInt64(pool.count))]
    }
}
