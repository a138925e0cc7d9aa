/// What one fetch needs to turn its rows into models, and what it gathers while it does (`ModelContext.materialize`).
///
/// For each row the context either finds the row's registered model — filled in from the row when it is a fault
/// (``fillFault(_:key:from:)``) — or makes a new model over the row's values (``newBackingData(key:entity:from:)``),
/// every value checked against its property. New models are registered after the last row, all at once (``made``),
/// so the identity map grows once; the faults filled (``filledFaults``) and the targets of the rows' to-one foreign
/// keys (``targetKeys``) are noted with them, so a relationship read across the results loads for all of them.
///
/// Everything derived from the request and the entity is computed once here, not per row.
struct RowMaterializer {
    let entity: Schema.Entity
    /// The property indexes the rows hold, in column order.
    let columns: [Int]
    /// Whether a model made here reads a relationship as it is made: its rows are then all read before any model
    /// is made, since a fetch from inside the store's read would wait on that read.
    let makesModelsAfterReading: Bool
    /// The to-one foreign keys among ``columns`` whose targets are noted (none when models are made after reading).
    let foreignKeyIndexes: [Int]
    /// Whether rows say which entity of a hierarchy they belong to.
    let readsEntity: Bool
    /// The properties left out of a model of ``entity`` made here; `nil` when the rows hold every column.
    private let unloaded: Set<Int>?
    /// Whether models made here may miss some properties: the request leaves some out, or a row of a subentity
    /// holds only its base entity's columns.
    var leavesPropertiesOut: Bool { unloaded != nil || readsEntity }
    private let properties: [any AnyPersistentProperty]
    private let validations: [Schema.Entity.RowValidation]
    private let passingClasses: [StorageClasses]
    /// ``columns`` as the store's row reader takes them.
    private let rowColumns: StoreRowColumns
    // Taken once, not per row: each would ask the context for its reference through the backing data's protocol.
    // A fetch outside any context shares one reference to the store among its models.
    private let contextReference: ModelContextReference

    /// Models made for new rows, with their keys, to register after the last row: a result holds each row once.
    var made: [(key: Int64, model: any PersistentModel)] = []
    /// Faults filled from their rows, whose relationships can now load with the new models'.
    var filledFaults: [Int64] = []
    /// For each of ``foreignKeyIndexes``, the keys the rows refer to.
    var targetKeys: [[Int64]]

    /// - Parameter reservedRows: the rows to make room for at once (a limited fetch's limit).
    init(
        _ request: StoreFetch, store: any ModelBackingDataStore, contextReference: ModelContextReference?,
        reservedRows: Int?
    ) {
        entity = request.entity
        columns = request.columns ?? []
        readsEntity = request.readsEntityColumn
        properties = entity.persistentProperties
        validations = entity.rowValidations
        passingClasses = entity.classesPassingWithoutPayload
        // A fetch of columns reads the row's version after them.
        rowColumns = StoreRowColumns(columns, passing: passingClasses, readsVersion: request.columns != nil)
        unloaded =
            columns.count == entity.columnPropertyIndexes.count
            ? nil : Set(entity.columnPropertyIndexes).subtracting(columns)
        makesModelsAfterReading = entity.modelsReadRelationshipsWhenMade
        foreignKeyIndexes =
            makesModelsAfterReading ? [] : Set(columns).intersection(entity.toOneForeignKeyIndexes).sorted()
        targetKeys = [[Int64]](repeating: [], count: foreignKeyIndexes.count)
        self.contextReference = contextReference ?? ModelContextReference(store: store)
        if let reservedRows { made.reserveCapacity(reservedRows) }
    }

    /// Fills a registered model's values from its row when the model is a fault (reached through a relationship, or
    /// fetched with `propertiesToFetch`) and the row holds every column, checked as a new model's row is.
    ///
    /// Such a model has no changes, since assigning a property loads the fault first (one assigned after a failed read
    /// loads on its own, keeping the assignment: `ModelBackingData+Faulting`).
    /// - Throws: `StrataError.invalidStoredValue` naming the first value that doesn't fit; the fault is left as it was.
    mutating func fillFault(_ data: ModelBackingData, key: Int64, from row: any StoreRow) throws {
        guard data.unloadedProperties != nil, columns.count == entity.columnPropertyIndexes.count,
            !data.hasSavedValues
        else { return }
        // Read into a copy, so a row that fails its checks leaves the fault as it was.
        let filled = ModelBackingData.make(propertyCount: data.valueCount)
        var version: Int64 = 0
        let decoded = try filled.withUnsafeMutableValues { values in
            data.withUnsafeValues { current in
                for index in current.indices { values.initialize(index, to: current[index]) }
            }
            // The row reader initializes each value over a `NULL` (`StoreRow.readValues(_:into:version:)`).
            for index in columns { values[index] = .null }
            let passes = row.readValues(rowColumns, into: values, version: &version)
            let decoded = try passes ? nil : checkEachValue(values)
            noteTargets(values)
            return decoded
        }
        data.values.replace(with: filled.values.copy)
        for index in columns { data.decodedValues[index] = decoded?[index] }
        data.unloadedProperties = nil
        data.rowVersion = rowColumns.readsVersion ? version : row.version(afterColumns: columns.count)
        filledFaults.append(key)
    }

    /// The backing data of a new model of `rowEntity` (``entity`` or, in a hierarchy, the row's own) over `row`'s
    /// checked values; a subentity's own columns load when first read.
    /// - Throws: `StrataError.invalidStoredValue` naming the first value that doesn't fit its property.
    @inline(__always)
    mutating func newBackingData(
        key: Int64, entity rowEntity: Schema.Entity, from row: any StoreRow
    ) throws -> ModelBackingData {
        let data = ModelBackingData.make(
            primaryKey: key, entity: rowEntity, contextReference: contextReference)
        var version: Int64 = 0
        // Read in one call and checked in place: copying each value out would retain and release its payload.
        // Most rows pass on their values' storage classes alone, tested as the row is read; the rest are checked
        // value by value apart (a call here would copy the materializer for every row).
        let passes = data.withUnsafeMutableValues { row.readValues(rowColumns, into: $0, version: &version) }
        if !passes || !foreignKeyIndexes.isEmpty {
            try data.withUnsafeValues { values in
                if !passes {
                    let decoded = try checkEachValue(values)
                    if !decoded.isEmpty { data.decodedValues = decoded }
                }
                noteTargets(values)
            }
        }
        // A new backing data has every property loaded (`nil`), which is what a fetch of every column wants.
        if rowEntity !== entity {
            data.unloadedProperties = Set(rowEntity.columnPropertyIndexes).subtracting(columns)
        } else if unloaded != nil {
            data.unloadedProperties = unloaded
        }
        if rowColumns.readsVersion { data.rowVersion = version }
        return data
    }

    /// The entity of a row of a hierarchy's table, named by its entity column.
    /// - Throws: `StrataError.invalidStoredValue` when the column names no entity of the fetched one's.
    static func hierarchyEntity(of row: any StoreRow, request: StoreFetch) throws -> Schema.Entity {
        let stored = row.storedValue(at: request.entityColumnPosition)
        if case .text(let name) = stored, let entity = request.entity.descendant(named: name) { return entity }
        throw StrataError.invalidStoredValue(
            entity: request.entity.name, property: StoreLayout.entityColumn, found: stored.description)
    }

    /// Checks each value of a row read into `values` against its property, and returns the decoded values of the
    /// properties whose decoded values are cached: a row whose values don't all pass on their storage classes.
    /// - Throws: `StrataError.invalidStoredValue` naming the first value that doesn't fit its property.
    private func checkEachValue(_ values: ValueSlots) throws -> [Int: Any] {
        var decoded = [Int: Any]()
        for index in columns {
            // Most values pass on their storage class alone (a bit test); only the others are looked at.
            if passingClasses[index].admits(values[index]) { continue }
            let isValid: Bool
            switch validations[index] {
            case .foreignKey:
                switch values[index] {
                case .integer, .null: isValid = true
                default: isValid = false
                }
            case .decodeAndCache:
                decoded[index] = properties[index].decodeAny(values[index])
                isValid = decoded[index] != nil
            case .check(let check, let isOptional):
                isValid =
                    check.accepts(values[index], isOptional: isOptional) ?? properties[index].accepts(values[index])
            }
            guard isValid else {
                throw StrataError.invalidStoredValue(
                    entity: entity.name, property: properties[index].name, found: values[index].description)
            }
        }
        return decoded
    }

    /// Notes the keys the row's to-one foreign keys refer to.
    private mutating func noteTargets(_ values: ValueSlots) {
        for (position, index) in foreignKeyIndexes.enumerated() {
            if case .integer(let target) = values[index] { targetKeys[position].append(target) }
        }
    }
}
