/// One group of a ``FormatAggregateDescriptor`` fetch: its keys and aggregates under the names
/// ``FormatAggregateDescriptor/propertiesToFetch`` gives them, as Core Data's `.dictionaryResultType` row.
///
/// ```swift
/// for row in try context.fetch(descriptor) {
///     print(row["category"]?.stringValue ?? "-", row["@sum.cents"]?.intValue ?? 0)
/// }
/// ```
public struct AggregateDictionary: Hashable, Sendable, CustomStringConvertible {
    /// The names, in the order of ``FormatAggregateDescriptor/propertiesToFetch``.
    public let keys: [String]
    /// The values, in the order of ``keys``.
    public let values: [AggregateValue]

    /// The value fetched under `key` (a property name or a result expression, as written in
    /// `propertiesToFetch`); `nil` when nothing was fetched under it.
    public subscript(key: String) -> AggregateValue? {
        keys.firstIndex(of: key).map { values[$0] }
    }

    /// The names and values, as `[category: food, @sum.cents: 1200]`.
    public var description: String {
        "[" + zip(keys, values).map { "\($0): \($1)" }.joined(separator: ", ") + "]"
    }
}
