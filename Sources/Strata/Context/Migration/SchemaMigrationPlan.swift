/// How an app's schema evolved: its versions, oldest first, and the stages that migrate a store from one to the
/// next. Pass it to `ModelContainer(for:migrationPlan:configurations:)`; the store migrates
/// from whatever listed version it holds to the newest, all stages in one transaction.
///
/// ```swift
/// enum TripsMigrationPlan: SchemaMigrationPlan {
///     static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
///     static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
/// }
/// ```
public protocol SchemaMigrationPlan: SendableMetatype {
    /// The schema's versions, oldest first.
    static var schemas: [any VersionedSchema.Type] { get }
    /// The stages between versions. Two consecutive versions without a stage migrate as a lightweight stage.
    static var stages: [MigrationStage] { get }
}

/// A migration between two versions of a schema.
public enum MigrationStage: Sendable, CustomDebugStringConvertible {
    /// A migration Strata infers from the two versions' models: every change must be lossless (added optional or
    /// defaulted properties, removals, `originalName:` renames, new entities, relationships, indexes and
    /// constraints over distinct values, optional ↔ non-optional with a default, wider integers).
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// A lightweight migration with work of your own around it: `willMigrate` gets a context over the old
    /// version's models (the store still in the old shape), `didMigrate` one over the new version's. Both may
    /// fetch, insert, change and delete; their work commits with the whole migration or not at all.
    ///
    /// `@preconcurrency`, as SwiftData declares it: closures capturing values that aren't `Sendable` compile.
    @preconcurrency case custom(
        fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
        willMigrate: (@Sendable (ModelContext) throws -> Void)?, didMigrate: (@Sendable (ModelContext) throws -> Void)?)

    /// The stage's kind and versions, e.g. `lightweight(1.0.0 → 2.0.0)`.
    public var debugDescription: String {
        switch self {
        case .lightweight(let from, let to):
            "lightweight(\(from.versionIdentifier) → \(to.versionIdentifier))"
        case .custom(let from, let to, _, _):
            "custom(\(from.versionIdentifier) → \(to.versionIdentifier))"
        }
    }
}

extension StoreMigrationPlan {
    /// The store's view of a `SchemaMigrationPlan`: a schema per version, and each custom stage's closures run
    /// in a context over a container whose store works through the migrating connection.
    package init(_ plan: any SchemaMigrationPlan.Type) {
        let schemas = plan.schemas.map { Schema(versionedSchema: $0) }
        let schema = { (version: any VersionedSchema.Type) in
            schemas.first { $0.versionIdentifier == version.versionIdentifier } ?? Schema(versionedSchema: version)
        }
        let hook = {
            (
                body: (@Sendable (ModelContext) throws -> Void)?, schema: Schema
            ) -> ((any PersistentStore) throws -> Void)? in
            body.map { body in
                { store in
                    let context = ModelContext(ModelContainer(schema: schema, store: store))
                    try body(context)
                    if context.hasChanges { try context.save() }
                }
            }
        }
        let stages = plan.stages.map { stage in
            switch stage {
            case .lightweight(let from, let to):
                Stage(from: schema(from), to: schema(to), willMigrate: nil, didMigrate: nil)
            case .custom(let from, let to, let willMigrate, let didMigrate):
                Stage(
                    from: schema(from), to: schema(to), willMigrate: hook(willMigrate, schema(from)),
                    didMigrate: hook(didMigrate, schema(to)))
            }
        }
        self.init(schemas: schemas, stages: stages)
    }
}
