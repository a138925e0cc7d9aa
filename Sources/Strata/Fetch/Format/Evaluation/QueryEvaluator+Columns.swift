extension QueryEvaluator {
    /// The columns of one entity that a query names, found once and shared by the evaluators that judge the query's
    /// models: a lookup by name hashes the name, and a query judges every unsaved model of its entity.
    ///
    /// The names come from the query's own expressions, so a name met again is the same string and compares
    /// equal at once.
    package final class Columns {
        /// What the evaluator needs of a column.
        struct Column {
            /// The property's index among the entity's persistent properties.
            let index: Int
            /// Whether the column is a to-one relationship's foreign key.
            let isForeignKey: Bool
            /// Whether the column declares the decimal collation (`STRATA_DECIMAL`).
            let isDecimal: Bool
        }

        /// The entity whose columns these are.
        let entity: Schema.Entity
        // Unchecked: a lookup is one instantaneous access, made once per column of every model judged.
        @exclusivity(unchecked) private var names: [String] = []
        @exclusivity(unchecked) private var found: [Column] = []
        /// Beyond this many names a lookup by name is as cheap as comparing with each kept one.
        private static var kept: Int { 8 }

        /// An empty set of columns of `entity`, filled as evaluators look names up.
        package init(entity: Schema.Entity) {
            self.entity = entity
        }

        /// The column called `name`; `nil` when the entity has no such property.
        func column(named name: String) -> Column? {
            for position in names.indices where names[position] == name { return found[position] }
            guard let property = entity.property(named: name) else { return nil }
            let isDecimal: Bool
            if case .attribute(.decimal) = property.kind { isDecimal = true } else { isDecimal = false }
            let column = Column(
                index: property.index, isForeignKey: property.relationshipDestination != nil, isDecimal: isDecimal)
            if names.count < Self.kept {
                names.append(name)
                found.append(column)
            }
            return column
        }
    }
}
