/// A piece of SQL built from text, quoted identifiers and bound values, rendered only at the end, so that no
/// value is ever spliced into SQL text.
package struct SQLFragment: Sendable, Hashable {
    package enum Segment: Sendable, Hashable {
        case text(String)
        case identifier(String)
        case binding(StoredValue)
        /// A placeholder whose value the caller binds each time it runs the statement: a statement prepared once
        /// and run for many rows. Numbered with the bound values, in order; it has no value in `render`'s bindings.
        case parameter
        /// A function name, spelled by the dialect.
        case function(QueryFunction)
        /// `COLLATE` and a collation name, spelled by the dialect (nothing where the dialect names none).
        case collation(QueryOrdering.Collation)
    }

    package private(set) var segments: [Segment]

    package init(_ segments: [Segment] = []) { self.segments = segments }

    /// Plain SQL text (keywords, operators). Never pass user input here.
    package init(sql: String) { self.segments = [.text(sql)] }

    package static func identifier(_ name: String) -> SQLFragment { SQLFragment([.identifier(name)]) }
    package static func binding(_ value: StoredValue) -> SQLFragment { SQLFragment([.binding(value)]) }
    /// One placeholder whose value the caller binds each time it runs the statement (see ``Segment/parameter``).
    package static var parameter: SQLFragment { SQLFragment([.parameter]) }
    /// `count` parameters, comma-separated, for a statement run with values bound row by row.
    package static func parameters(_ count: Int) -> SQLFragment {
        joined(Array(repeating: SQLFragment([.parameter]), count: count), separator: ", ")
    }
    package static func function(_ function: QueryFunction) -> SQLFragment { SQLFragment([.function(function)]) }

    package mutating func append(_ other: SQLFragment) { segments.append(contentsOf: other.segments) }
    package mutating func append(sql: String) { segments.append(.text(sql)) }
    package mutating func append(binding value: StoredValue) { segments.append(.binding(value)) }

    package static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        var result = lhs
        result.append(rhs)
        return result
    }

    /// Joins fragments with a separator written as SQL text.
    package static func joined(_ fragments: [SQLFragment], separator: String) -> SQLFragment {
        var result = SQLFragment()
        for (offset, fragment) in fragments.enumerated() {
            if offset > 0 { result.append(sql: separator) }
            result.append(fragment)
        }
        return result
    }

    /// The SQL text with every bound value written as the dialect's literal, for a statement that takes no bindings
    /// (DDL: a column's `DEFAULT`, a table rebuilt from an expression). Parameters stay placeholders.
    package func inlined(in dialect: some SQLDialect) -> String {
        let inlined = segments.map { segment -> Segment in
            if case .binding(let value) = segment { return .text(dialect.literal(value)) }
            return segment
        }
        return SQLFragment(inlined).render(in: dialect).sql
    }

    /// The SQL text and its bindings, spelled by a dialect.
    package func render(in dialect: some SQLDialect) -> (sql: String, bindings: [StoredValue]) {
        var sql = ""
        var bindings: [StoredValue] = []
        var placeholders = 0
        for segment in segments {
            switch segment {
            case .text(let text): sql += text
            case .identifier(let name): sql += dialect.quote(identifier: name)
            case .binding(let value):
                bindings.append(value)
                placeholders += 1
                sql += dialect.placeholder(at: placeholders)
            case .parameter:
                placeholders += 1
                sql += dialect.placeholder(at: placeholders)
            case .function(let function): sql += dialect.functionName(for: function)
            case .collation(let collation):
                if let name = dialect.collationName(for: collation) { sql += " COLLATE " + name }
            }
        }
        return (sql, bindings)
    }
}
