/// The versions and stages a store opening may migrate through, as the Context layer hands them to the store:
/// a `SchemaMigrationPlan`'s schemas (oldest first) and its stages, the custom stages' work as hooks that get
/// a store over the migrating connection (any store: each executor makes its own).
package struct StoreMigrationPlan {
    /// One stage between two of the plan's versions.
    package struct Stage {
        /// The version the stage starts from.
        package let from: Schema
        /// The version the stage ends at.
        package let to: Schema
        /// Runs before the stage's schema changes, with a store in `from`'s shape.
        package let willMigrate: ((any PersistentStore) throws -> Void)?
        /// Runs after them, with a store in `to`'s shape.
        package let didMigrate: ((any PersistentStore) throws -> Void)?

        /// A stage from `from` to `to`, with the custom stage's hooks if any.
        package init(
            from: Schema, to: Schema, willMigrate: ((any PersistentStore) throws -> Void)?,
            didMigrate: ((any PersistentStore) throws -> Void)?
        ) {
            self.from = from
            self.to = to
            self.willMigrate = willMigrate
            self.didMigrate = didMigrate
        }
    }

    /// The plan's schemas, oldest first; each has a version identifier.
    package let schemas: [Schema]
    /// The plan's stages.
    package let stages: [Stage]

    /// A plan of `schemas` (oldest first) and `stages`.
    ///
    /// A stage may start from a version `schemas` leaves out, as a test's plan of one stage does
    /// (`schemas: [SchemaV3.self]`, `stages: [v2ToV3]`, run against a version 2 store): that version counts as the
    /// plan's, just before the stage's target.
    package init(schemas: [Schema], stages: [Stage]) {
        var listed = schemas
        for stage in stages {
            guard let from = stage.from.versionIdentifier,
                !listed.contains(where: { $0.versionIdentifier == from }),
                let target = listed.firstIndex(where: { $0.versionIdentifier == stage.to.versionIdentifier })
            else { continue }
            listed.insert(stage.from, at: target)
        }
        self.schemas = listed
        self.stages = stages
    }
}

/// One stage as a migration runs it: the target schema, whether entities it lacks are dropped, and its hooks.
package struct ResolvedStage {
    /// The plan's version the stage starts from; `nil` for an inferred migration.
    package let from: Schema?
    /// The schema the stage migrates to.
    package let to: Schema
    /// Whether entities `to` lacks are dropped (a plan's stage) or kept (inferred).
    package let dropsRemovedEntities: Bool
    /// Runs before the stage's changes, with a store in `from`'s shape.
    package let willMigrate: ((any PersistentStore) throws -> Void)?
    /// Runs after them, with a store in `to`'s shape.
    package let didMigrate: ((any PersistentStore) throws -> Void)?
    /// A plan's stage (`lightweight` or `custom`), or `nil` for an inferred migration.
    package let kind: String?
}

extension StoreMigrationPlan {
    /// The stages that take a store holding `stored` to the newest schema.
    ///
    /// - Throws: `StrataError.unknownStoreVersion` when the store's version is not among the plan's.
    func stages(from stored: StoredSchema, path: String, layout: any StoreTableLayout) throws -> [ResolvedStage] {
        let versions = schemas.compactMap(\.versionIdentifier)
        guard let newest = schemas.last else { return [] }
        let position: Int
        if let version = stored.version {
            guard let index = versions.firstIndex(of: version) else {
                throw StrataError.unknownStoreVersion(
                    path: path,
                    storeVersion: version.description
                        + (versions.last.map { version > $0 ? " (newer than the plan's newest)" : "" } ?? ""),
                    planVersions: versions.map(\.description))
            }
            position = index
        } else if let index = schemas.lastIndex(where: { Self.holds(stored, $0, layout: layout) }) {
            position = index
        } else {
            throw StrataError.unknownStoreVersion(
                path: path,
                storeVersion:
                    "an unversioned schema matching none of the plan's (entities: \(stored.entities.map(\.name).joined(separator: ", ")))",
                planVersions: versions.map(\.description))
        }
        var resolved: [ResolvedStage] = []
        var index = position
        while index < schemas.count - 1 {
            let version = versions[index]
            if let stage = stages.first(where: { $0.from.versionIdentifier == version }),
                let next = schemas.firstIndex(where: { $0.versionIdentifier == stage.to.versionIdentifier }),
                next > index
            {
                resolved.append(
                    ResolvedStage(
                        from: schemas[index], to: schemas[next], dropsRemovedEntities: true,
                        willMigrate: stage.willMigrate,
                        didMigrate: stage.didMigrate,
                        kind: stage.willMigrate == nil && stage.didMigrate == nil ? "lightweight" : "custom"))
                index = next
            } else {
                resolved.append(
                    ResolvedStage(
                        from: schemas[index], to: schemas[index + 1], dropsRemovedEntities: true, willMigrate: nil,
                        didMigrate: nil, kind: "lightweight"))
                index += 1
            }
        }
        if resolved.isEmpty {
            resolved.append(
                ResolvedStage(
                    from: nil, to: newest, dropsRemovedEntities: false, willMigrate: nil, didMigrate: nil, kind: nil))
        }
        return resolved
    }

    /// Whether the store's tables are exactly `schema`'s.
    private static func holds(_ stored: StoredSchema, _ schema: Schema, layout: any StoreTableLayout) -> Bool {
        let wanted = StoredSchema(schema: schema, layout: layout)
        return wanted.entities.count == stored.entities.count
            && zip(wanted.entities, stored.entities).allSatisfy { $1.matches($0) }
    }
}
