extension ModelBackingData {
    /// The model's property values in stored form, by property index, in place in the backing data.
    @inlinable package var values: Values { Values(data: self) }

    /// Calls `body` with the values in place.
    @inlinable
    package func withUnsafeValues<Result>(_ body: (ValueSlots) throws -> Result) rethrows -> Result {
        // The caller holds the backing data for the call, which keeps the view valid.
        try body(slots)
    }

    /// Calls `body` with the values in place, to change them.
    @inlinable
    package func withUnsafeMutableValues<Result>(_ body: (ValueSlots) throws -> Result) rethrows -> Result {
        fields.pointee.valuesVersion &+= 1
        return try body(slots)
    }

    /// A view of a backing data's values, in place: reading one copies nothing, and writing one writes the
    /// backing data (so it needs no `var`).
    ///
    /// Every index Strata passes is a property index of the model's entity, and a backing data holds one value
    /// per property from the start, so the bounds checks are unreachable from user data; out of range, an
    /// access would be outside the allocation.
    @usableFromInline
    package struct Values: RandomAccessCollection {
        @usableFromInline let data: ModelBackingData

        @inlinable init(data: ModelBackingData) {
            self.data = data
        }

        @inlinable package var startIndex: Int { 0 }
        @inlinable package var endIndex: Int { data.valueCount }

        /// The value at `index`.
        @inlinable package subscript(index: Int) -> StoredValue {
            get { data.slots[index] }
            nonmutating set {
                data.slots[index] = newValue
                data.fields.pointee.valuesVersion &+= 1
            }
        }

        /// Calls `body` with the values in place.
        @inlinable
        package func withUnsafeValues<Result>(_ body: (ValueSlots) throws -> Result) rethrows -> Result {
            try data.withUnsafeValues(body)
        }

        /// Calls `body` with the values in place, to change them.
        @inlinable
        package func withUnsafeMutableValues<Result>(_ body: (ValueSlots) throws -> Result) rethrows -> Result {
            try data.withUnsafeMutableValues(body)
        }

        /// A counter that moves on every write to the values: two equal readings mean no value was written
        /// between them. Live results compare it instead of keeping a copy of every shown model's values.
        @inlinable package var version: UInt64 { data.fields.pointee.valuesVersion }

        /// A copy of the values, independent of the backing data.
        package var copy: [StoredValue] {
            withUnsafeValues { Array($0) }
        }

        /// Replaces every value with `replacement`'s, which holds one per property as these do.
        ///
        /// Every caller passes values of the same entity (a copy of these, or another model's of the entity), so
        /// the counts match and the check is unreachable from user data.
        package func replace(with replacement: [StoredValue]) {
            precondition(replacement.count == endIndex, "Strata: \(replacement.count) values replace \(endIndex)")
            withUnsafeMutableValues { values in
                for index in replacement.indices { values[index] = replacement[index] }
            }
        }
    }
}
