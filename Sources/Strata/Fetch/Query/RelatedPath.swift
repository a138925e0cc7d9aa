/// One step from an entity across one of its relationships, as a query sees it.
///
/// Equal hops name the same relationship of the same entity.
package struct RelationshipHop: Hashable, Sendable {
    /// How the destination's rows are reached from the owner's row.
    package enum Link: Hashable, Sendable {
        /// `destination.destinationColumn = owner.ownerColumn`: a foreign key on either table.
        case column(owner: String, destination: String)
        /// Through a join table: `table.ownerColumn = owner.Z_PK` and `destination.Z_PK = table.targetColumn`.
        case joinTable(name: String, ownerColumn: String, targetColumn: String)
    }

    /// The entity the relationship belongs to.
    package let owner: Schema.Entity
    /// The relationship's resolved description.
    package let relationship: Schema.RelationshipInfo
    package let link: Link

    /// The hop across the relationship at `index` of `owner`; `nil` when that property is not a resolved
    /// relationship (or its storage needs an inverse it lacks).
    package init?(owner: Schema.Entity, relationshipIndex index: Int) {
        guard let relationship = owner.relationshipInfos[index] else { return nil }
        let key = StoreLayout.primaryKeyColumn
        switch relationship.storage {
        case .foreignKey:
            link = .column(owner: relationship.name, destination: key)
        case .inverseForeignKey:
            guard let inverse = relationship.inverse else { return nil }
            link = .column(owner: key, destination: inverse.name)
        case .joinTable(let name, let ownerColumn, let targetColumn):
            link = .joinTable(name: name, ownerColumn: ownerColumn, targetColumn: targetColumn)
        }
        self.owner = owner
        self.relationship = relationship
    }

    /// The hop across `owner`'s relationship called `name` (as format strings name it); `nil` when there is none.
    package init?(owner: Schema.Entity, relationshipNamed name: String) {
        guard let property = owner.property(named: name) else { return nil }
        self.init(owner: owner, relationshipIndex: property.index)
    }

    /// The entity the hop arrives at.
    package var destination: Schema.Entity { relationship.destination }

    package static func == (lhs: RelationshipHop, rhs: RelationshipHop) -> Bool {
        lhs.owner === rhs.owner && lhs.relationship.index == rhs.relationship.index
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(owner))
        hasher.combine(relationship.index)
    }
}

/// A chain of to-one relationships (`book.author.publisher`): expressions evaluated at its end refer to the last
/// destination's properties, and are null when any hop is nil.
package struct RelatedPath: Hashable, Sendable {
    package var hops: [RelationshipHop]

    package init(hops: [RelationshipHop]) { self.hops = hops }
}

/// The rows of a to-many relationship, optionally reached through to-one hops first (`book.author.books`), and
/// optionally narrowed by a condition in the destination's scope.
package struct RelatedQuery: Hashable, Sendable {
    /// Zero or more to-one hops followed by the to-many hop.
    package var path: RelatedPath
    /// A condition on each destination row; its columns are the destination's.
    package var condition: QueryExpression?

    package init(path: RelatedPath, condition: QueryExpression? = nil) {
        self.path = path
        self.condition = condition
    }
}

/// An aggregate over the rows of a relationship. Over no rows each gives null (SQL's rule), so callers that want
/// Swift's `0` for an empty sum wrap it in `coalesce`.
package enum QueryAggregate: String, Hashable, Sendable {
    case sum
    /// The sum of an integer attribute: exact, failing the query when it leaves `Int64` (Swift's `+` traps). An
    /// engine may also fail where a partial sum overflows (SQLite does), which is a refusal, not another answer.
    case integerSum
    case average
    case minimum
    case maximum
    /// The sum of a `Double`/`Float` attribute, computed exactly and rounded once, so the relationship's (absent)
    /// order doesn't matter: NaN when any value is NaN or both infinities occur, an infinity past the finite
    /// range; NaN comes out as the text `'NaN'`, as stored.
    case floatingSum
    /// ``floatingSum`` divided by the number of values.
    case floatingAverage
    /// SQL's `min` of a `Double`/`Float` attribute, marked as a value that may be NaN: NaN sorts above every
    /// number, so it is the minimum only when every value is NaN.
    case floatingMinimum
    /// SQL's `max` of a `Double`/`Float` attribute, marked as a value that may be NaN: NaN when any value is.
    case floatingMaximum

    /// Whether the result may be NaN (the aggregate runs over a floating-point attribute).
    package var mayBeNaN: Bool {
        switch self {
        case .floatingSum, .floatingAverage, .floatingMinimum, .floatingMaximum: true
        case .sum, .integerSum, .average, .minimum, .maximum: false
        }
    }
}
