import Foundation

/// Evaluates a `QueryExpression` in memory over one model's stored values, with the semantics SQLite gives
/// the same expression: three-valued logic (a comparison with `NULL` is unknown, and an unknown condition
/// does not match), SQLite's ordering of storage classes, column collations (`STRATA_DECIMAL`), and the
/// same `StrataText` string functions the store registers.
///
/// Contexts use it to judge unsaved models against a fetch's condition, so pending changes match exactly
/// as saved rows would.
///
/// ```swift
/// let evaluator = QueryEvaluator(entity: entity, values: { model.persistentBackingData.values[$0] })
/// let matches = try evaluator.isSatisfied(condition)
/// ```
package struct QueryEvaluator {
    /// The entity of the evaluated row: its columns are this entity's properties.
    package let entity: Schema.Entity
    /// The primary key of the evaluated row, if it has one.
    package let primaryKey: Int64?
    /// Reads a value of a row that is no model; `nil` when the values are `backingData`'s.
    private let valueAt: ((Int) -> StoredValue)?
    /// The model's backing data, through which relationships are followed; `nil` for bare values.
    let backingData: ModelBackingData?
    /// The rows across a relationship of a row that is no model (a custom store's row held in memory).
    let relatedRows: ((RelationshipHop) throws -> [QueryEvaluator])?
    /// The entity's columns found by name before, shared with the other evaluators of one query.
    let columns: Columns?

    /// An evaluator over the stored values of one row, read by property index; `related` gives the rows across a
    /// relationship (`nil`: relationships can't be followed).
    package init(
        entity: Schema.Entity, primaryKey: Int64? = nil, values: @escaping (Int) -> StoredValue,
        related: ((RelationshipHop) throws -> [QueryEvaluator])? = nil
    ) {
        self.entity = entity
        self.primaryKey = primaryKey
        self.valueAt = values
        self.backingData = nil
        self.relatedRows = related
        self.columns = nil
    }

    /// An evaluator over a model's current (possibly unsaved) values; `columns` (of `entity`) keeps the columns
    /// found by name for the next model judged by the same query.
    package init(entity: Schema.Entity, backingData data: ModelBackingData, columns: Columns? = nil) {
        if data.unloadedProperties != nil { data.loadUnloadedProperties() }
        self.entity = entity
        self.primaryKey = data.primaryKey
        // Read in place (see `value(at:)`): an evaluator is made per model judged, so it allocates nothing.
        self.valueAt = nil
        self.backingData = data
        self.relatedRows = nil
        self.columns = columns.flatMap { $0.entity === entity ? $0 : nil }
    }

    /// The row's value of the property at `index`; `NULL` past the row's values.
    private func value(at index: Int) -> StoredValue {
        if let valueAt { return valueAt(index) }
        guard let backingData else { return .null }
        let values = backingData.values
        return index < values.count ? values[index] : .null
    }

    /// Whether `condition` holds; an unknown (`NULL`) result does not, as in a SQL `WHERE`.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` for a column the entity doesn't have, or
    ///   `StrataError.storeFailure` where SQL would fail (checked arithmetic overflow, an invalid regex).
    package func isSatisfied(_ condition: QueryExpression) throws -> Bool {
        Self.truth(try evaluate(condition)) ?? false
    }

    /// The value of an expression, as SQLite would compute it.
    ///
    /// - Throws: as ``isSatisfied(_:)``.
    package func evaluate(_ expression: QueryExpression) throws -> StoredValue {
        switch expression {
        case .column(let name):
            return try column(name)
        case .value(let value):
            return value
        case .constant(let truth):
            return .sqlBool(truth)
        case .equal(let left, let right):
            return .sqlBool(try isIdentical(left, right))
        case .notEqual(let left, let right):
            return .sqlBool(!(try isIdentical(left, right)))
        case .compare(let left, let op, let right):
            guard let order = try compare(left, right) else { return .null }
            return .sqlBool(Self.holds(op, order))
        case .and(let operands):
            return try logical(operands, decisive: false)
        case .or(let operands):
            return try logical(operands, decisive: true)
        case .not(let operand):
            return Self.truth(try evaluate(operand)).map { .sqlBool(!$0) } ?? .null
        case .arithmetic(let op, let left, let right, let bounds):
            return try arithmetic(op, try evaluate(left), try evaluate(right), bounds: bounds)
        case .function(let function, let arguments):
            return try call(function, try arguments.map(evaluate))
        case .isNull(let operand):
            return .sqlBool(try evaluate(operand) == .null)
        case .in(let operand, let list):
            return try membership(operand, list)
        case .between(let operand, let lower, let upper):
            return try logical(
                [.compare(operand, .greaterOrEqual, lower), .compare(operand, .lessOrEqual, upper)], decisive: false)
        case .case(let condition, let then, let otherwise):
            return Self.truth(try evaluate(condition)) == true ? try evaluate(then) : try evaluate(otherwise)
        case .collated(let operand, _):
            return try evaluate(operand)
        case .related(let path, let expression):
            guard let row = try rows(through: path.hops).first else { return .null }
            return try row.evaluate(expression)
        case .exists(let query):
            return .sqlBool(!(try rows(of: query)).isEmpty)
        case .relatedCount(let query):
            return .integer(Int64(try rows(of: query).count))
        case .relatedAggregate(let aggregate, let query, let expression):
            return try self.aggregate(aggregate, try rows(of: query).map { try $0.evaluate(expression) })
        }
    }

    private func column(_ name: String) throws -> StoredValue {
        if name == StoreLayout.primaryKeyColumn {
            if let primaryKey { return .integer(primaryKey) }
            // An unsaved model matches its temporary identifier (see `PersistentIdentifier.queryKey`).
            if let backingData, backingData.state == .inserted {
                return .integer(backingData.identifier(entityName: entity.name).queryKey)
            }
            return .null
        }
        if let columns {
            guard let column = columns.column(named: name) else { throw Self.noColumn(name, in: entity) }
            if column.isForeignKey, let backingData { return foreignKey(of: backingData, at: column.index) }
            return value(at: column.index)
        }
        guard let property = entity.property(named: name) else { throw Self.noColumn(name, in: entity) }
        if property.relationshipDestination != nil, let backingData {
            return foreignKey(of: backingData, at: property.index)
        }
        return value(at: property.index)
    }

    private static func noColumn(_ name: String, in entity: Schema.Entity) -> StrataError {
        StrataError.unsupportedPredicate(expression: name, reason: "\(entity.name) has no column \(name)")
    }

    /// `AND` (decisive `false`) or `OR` (decisive `true`) in three-valued logic. An operand that fails (an
    /// overflowing sum) fails the whole only when every other operand is known and doesn't decide it: SQL may
    /// evaluate the operands in any order and stop at one that decides or is unknown (which excludes the row).
    private func logical(_ operands: [QueryExpression], decisive: Bool) throws -> StoredValue {
        var unknown = false
        var failure: (any Error)?
        for operand in operands {
            let truth: Bool?
            do { truth = Self.truth(try evaluate(operand)) } catch {
                failure = failure ?? error
                continue
            }
            switch truth {
            case decisive?: return .sqlBool(decisive)
            case nil: unknown = true
            default: break
            }
        }
        if unknown { return .null }
        if let failure { throw failure }
        return .sqlBool(!decisive)
    }

    /// SQL `IN`: true on a match, unknown when the operand or a member is `NULL` and nothing matched.
    private func membership(_ operand: QueryExpression, _ list: [QueryExpression]) throws -> StoredValue {
        let value = try evaluate(operand)
        guard !list.isEmpty else { return .sqlBool(false) }
        guard value != .null else { return .null }
        let collation = self.collation(comparing: operand, with: .value(.null))
        var unknown = false
        for member in list {
            let candidate = try evaluate(member)
            if candidate == .null { unknown = true; continue }
            if Self.order(value, candidate, collation: collation) == .orderedSame { return .sqlBool(true) }
        }
        return unknown ? .null : .sqlBool(false)
    }

    /// SQL `IS`: equal values, or both `NULL`.
    private func isIdentical(_ left: QueryExpression, _ right: QueryExpression) throws -> Bool {
        let (leftValue, rightValue) = (try evaluate(left), try evaluate(right))
        if leftValue == .null || rightValue == .null { return leftValue == rightValue }
        return Self.order(leftValue, rightValue, collation: collation(of: leftValue, rightValue, left, right))
            == .orderedSame
    }

    /// How two operands order, `nil` when either is `NULL`. The left column's collation wins, then the right's.
    private func compare(_ left: QueryExpression, _ right: QueryExpression) throws -> ComparisonResult? {
        let (leftValue, rightValue) = (try evaluate(left), try evaluate(right))
        if leftValue == .null || rightValue == .null { return nil }
        return Self.order(leftValue, rightValue, collation: collation(of: leftValue, rightValue, left, right))
    }

    /// The collation comparing the values of `left` and `right`: looked up only when both are text, the only
    /// values a collation orders.
    private func collation(
        of leftValue: StoredValue, _ rightValue: StoredValue, _ left: QueryExpression, _ right: QueryExpression
    ) -> TextCollation {
        guard case .text = leftValue, case .text = rightValue else { return .binary }
        return collation(comparing: left, with: right)
    }

    private static func holds(_ op: QueryExpression.ComparisonOperator, _ order: ComparisonResult) -> Bool {
        switch op {
        case .less: order == .orderedAscending
        case .lessOrEqual: order != .orderedDescending
        case .greater: order == .orderedDescending
        case .greaterOrEqual: order != .orderedAscending
        }
    }

    /// A value read as a SQL condition: `nil` for `NULL`, otherwise whether it is a non-zero number.
    static func truth(_ value: StoredValue) -> Bool? {
        switch value {
        case .null: nil
        case .integer(let integer): integer != 0
        case .real(let real): real != 0
        case .text(let text): (SQLiteValueConversion.number(text).real ?? 0) != 0
        case .blob: false
        }
    }
}

extension StoredValue {
    /// SQL's Boolean: 1 or 0.
    static func sqlBool(_ truth: Bool) -> StoredValue { .integer(truth ? 1 : 0) }
}
