import Foundation

extension FormatSortDescriptor {
    /// The store ordering for this descriptor on `entity`.
    ///
    /// - Throws: `StrataError.unsupportedSortDescriptor` for a key that is not a stored attribute of the
    ///   entity, an unknown selector, or a string selector on a property that is not text.
    package func ordering(for entity: Schema.Entity) throws -> QueryOrdering {
        let property: (any AnyPersistentProperty)?
        if let keyPath {
            property = entity.property(for: keyPath)
        } else if let key, FormatTranslator.isIdentifier(key) {
            property = entity.property(named: key)
        } else {
            property = nil
        }
        guard let property, case .attribute(let storage) = property.kind else {
            throw StrataError.unsupportedSortDescriptor(
                description: description,
                reason: "not a stored attribute of \(entity.name); sort keys name one attribute")
        }
        guard let collation = Self.collation(forSelector: selector ?? "compare:") else {
            throw StrataError.unsupportedSortDescriptor(
                description: description,
                reason:
                    "unknown selector; use compare:, caseInsensitiveCompare:, localizedCompare: or localizedStandardCompare:"
            )
        }
        if collation != .binary, storage != .text {
            throw StrataError.unsupportedSortDescriptor(
                description: description,
                reason: "\(entity.name).\(property.name) is not text; string selectors apply to text only")
        }
        return QueryOrdering(expression: .column(property.name), ascending: ascending, collation: collation)
    }

    /// The collation a comparison selector names.
    private static func collation(forSelector selector: String) -> QueryOrdering.Collation? {
        switch selector {
        case "compare:": .binary
        case "caseInsensitiveCompare:": .caseInsensitive
        case "localizedCompare:": .localized
        case "localizedStandardCompare:": .localizedStandard
        default: nil
        }
    }
}
