/// Where a fetch's row columns go in a model's values, worked out once per fetch rather than for every row: the
/// result column `offset + 1` goes to the value of property ``columns``[`offset`]`.index`, and passes that
/// property on its storage class alone when it is one of ``columns``[`offset`]`.passing` (see
/// `StoredValueCheck.classesPassingWithoutPayload(isOptional:)`).
///
/// A row reader (``StoreRow/readValues(_:into:version:)``) needs no per-column bounds check against the passing classes,
/// and one check per row against the values (``requiredValueCount``) instead of one per column.
package struct StoreRowColumns {
    /// One column: the property its value goes to, and the storage classes on which that value passes.
    package struct Column {
        /// The index of the property (and of its value) the column holds.
        package let index: Int
        /// The classes a value passes the property on without a closer look; empty when it always needs one.
        package let passing: StorageClasses
    }

    /// The columns after the key, in result order.
    package let columns: [Column]
    /// The fewest values a row can be read into: one more than the largest property index among ``columns``.
    package let requiredValueCount: Int
    /// Whether the row's version (`Z_OPT`) follows the columns, read with them (a fetch of columns reads it last).
    package let readsVersion: Bool

    /// The columns holding the properties `indexes`, in result order, each passing on `passing[index]` (none
    /// when `passing` has no entry for it), followed by the row's version when `readsVersion`.
    package init(_ indexes: [Int], passing: [StorageClasses], readsVersion: Bool) {
        columns = indexes.map { Column(index: $0, passing: $0 < passing.count ? passing[$0] : []) }
        requiredValueCount = (indexes.max() ?? -1) + 1
        self.readsVersion = readsVersion
    }

    /// The position of the row's version among the row's columns: after the key and ``columns``.
    package var versionColumn: Int32 { Int32(columns.count + 1) }

    /// Whether every value the columns name in `values` passes its property on its storage classes: what a row
    /// reader that can't tell as it reads returns.
    package func admitAll(in values: ValueSlots) -> Bool {
        columns.allSatisfy { $0.index < values.count && $0.passing.admits(values[$0.index]) }
    }
}
