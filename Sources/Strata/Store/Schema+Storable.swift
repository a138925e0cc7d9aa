extension Schema {
    /// Checks, before a store opens, that every model can be stored as declared: the first problem resolving the
    /// schema found, else the first `#Index`/`#Unique` naming something that is not a persistent property.
    ///
    /// - Throws: `StrataError.invalidSchema` naming the entity and what is wrong with it (or the schema's first
    ///   problem).
    package func checkStorable() throws(StrataError) {
        if let problem = problems.first { throw problem }
        for entity in entities {
            if let keyPath = entity.unresolvedConstraintKeyPaths.first {
                throw StrataError.invalidSchema(
                    entity: entity.name,
                    reason:
                        "#Index/#Unique names \(entity.readableDescription(of: keyPath)), which is not a persistent property"
                )
            }
        }
    }
}
