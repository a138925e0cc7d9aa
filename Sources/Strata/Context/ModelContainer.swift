import Foundation
import Synchronization

/// Owns a schema and the store that holds its models, and hands out contexts to work with them.
///
/// ```swift
/// let container = try ModelContainer(for: Book.self)                    // default.store
/// let memory = try ModelContainer(for: Book.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
/// let context = container.mainContext                                    // @MainActor
/// let background = ModelContext(container)                               // any other isolation
/// ```
public final class ModelContainer: Sendable {
    /// The models the container stores.
    public let schema: Schema
    /// The container's `ModelConfiguration`s (empty when it opened another kind of store, such as PostgreSQL's).
    public let configurations: Set<ModelConfiguration>
    /// The migration plan the container was created with, if any.
    public let migrationPlan: (any SchemaMigrationPlan.Type)?
    package let store: any PersistentStore
    /// Who hears of each save of the container's contexts (live results, through their change center).
    package let saveObservers: ModelContainerSaveObservers
    /// Where each context's saves wait for the container's other contexts to merge them.
    let unmergedChanges: UnmergedChangesInboxes
    /// Whether the container opened its store, and so closes it when closed or released (not a migration stage's
    /// container, which works through the migration's store).
    let ownsStore: Bool
    /// Read and written on the main actor only (`mainContext`), and by `deinit`, which nothing runs beside.
    nonisolated(unsafe) var lazyMainContext: ModelContext?
    /// For a container that succeeded a released one, that container's main context, which keeps this one alive
    /// (so it is not held here); set once, before the container is shared.
    nonisolated(unsafe) weak var inheritedMainContext: ModelContext?

    /// Creates a container for model classes.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` when the store can't be opened or created, isn't a
    ///   Strata store, or holds a different schema (its `underlyingError` says which); the file is left untouched.
    public convenience init(for forTypes: any PersistentModel.Type..., configurations: ModelConfiguration...) throws {
        try self.init(for: Schema(forTypes), configurations: configurations)
    }

    /// Creates a container for a schema.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` when the store can't be opened or created, isn't a
    ///   Strata store, or holds a different schema (its `underlyingError` says which); the file is left untouched.
    public convenience init(for schema: Schema, configurations: ModelConfiguration...) throws {
        try self.init(for: schema, configurations: configurations)
    }

    /// Creates a container for a schema with an array of configurations: one store per configuration, each
    /// holding the models its configuration's schema names (a configuration without a schema holds the rest).
    ///
    /// - Throws: as ``init(for:migrationPlan:configurations:)-(_,_,[DataStoreConfiguration])``.
    public convenience init(for schema: Schema, configurations: [ModelConfiguration]) throws {
        try self.init(for: schema, migrationPlan: nil, configurations: configurations)
    }

    /// Creates a container for a schema over the stores the configurations describe (a `ModelConfiguration`, or
    /// another store's configuration such as `PostgresConfiguration`), migrating with an inferred, lossless
    /// migration when the store holds other models.
    ///
    /// - Throws: as ``init(for:migrationPlan:configurations:)-(_,_,[DataStoreConfiguration])``.
    public convenience init(for schema: Schema, configurations: [any DataStoreConfiguration]) throws {
        try self.init(for: schema, migrationPlan: nil, configurations: configurations)
    }

    /// Creates a container for a schema whose store migrates through `migrationPlan` (`nil`: an inferred,
    /// lossless migration when the store holds other models), with an array of configurations (several spread the
    /// models over several stores; a migration plan then can't be given).
    ///
    /// - Throws: a ``SwiftDataError`` whose `underlyingError` says what failed: `.loadIssueModelContainer` for
    ///   `StrataError.migrationRefused` (a change no stage makes losslessly or stored data a stage can't carry
    ///   over), `storeOpenFailed` / `notAStrataStore` (the store can't be opened) and configurations that can't
    ///   share the models (see the configuration-array initializer); `.unknownDataStoreSchema` for a store version
    ///   the plan doesn't list (`.backwardMigration` when it is newer than all of them); or whatever a custom stage throws. The file is then as it was.
    public convenience init(
        for schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: [ModelConfiguration]
    ) throws {
        try self.init(
            for: schema, migrationPlan: migrationPlan,
            configurations: configurations.map { $0 as any DataStoreConfiguration })
    }

    /// Creates a container for a schema over the store a configuration describes (SwiftData's custom-store
    /// initializer): a `ModelConfiguration` opens an SQLite file or memory, `StrataPostgres`'s
    /// `PostgresConfiguration` a PostgreSQL database. No configuration opens the default SQLite file.
    ///
    /// Several configurations spread the models over several stores, as in SwiftData: a configuration with a
    /// schema holds that schema's models, one without a schema holds every model no other configuration names,
    /// and configurations naming one file share its store. Fetches and saves go to each model's store; a save
    /// touching several stores commits in all of them or none (only a failure of a store's own commit after
    /// another store committed leaves a part written, and the error names it). Relationships and class
    /// hierarchies can't cross stores, and history is read per store (through a container of one configuration).
    ///
    /// ```swift
    /// let main = ModelConfiguration(schema: Schema([Trip.self]), url: tripsURL)
    /// let cache = ModelConfiguration(schema: Schema([Thumbnail.self]), isStoredInMemoryOnly: true)
    /// let container = try ModelContainer(for: Schema([Trip.self, Thumbnail.self]), configurations: main, cache)
    /// ```
    ///
    /// ```swift
    /// let container = try ModelContainer(for: schema, migrationPlan: nil, configurations: [PostgresConfiguration(url: url)])
    /// ```
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` when the store can't be opened or created, isn't a
    ///   Strata store, holds a different schema, or can't be migrated; a `SwiftDataError` carrying
    ///   `StrataError.invalidConfiguration` when a model is in two configurations' schemas or in none, is related to a model of another store, when configurations sharing a file disagree
    ///   on `allowsSave`, or when a migration plan is given for several stores.
    public init(
        for schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: [any DataStoreConfiguration]
    ) throws {
        let configurations = configurations.isEmpty ? [ModelConfiguration()] : configurations
        self.schema = schema
        self.configurations = Set(configurations.compactMap { $0 as? ModelConfiguration })
        self.migrationPlan = migrationPlan
        self.store = try throwingSwiftDataErrors {
            try Self.validate(configurations, of: schema)
            return try Self.openStores(for: schema, migrationPlan: migrationPlan, configurations: configurations)
        }
        self.ownsStore = true
        self.saveObservers = ModelContainerSaveObservers()
        self.unmergedChanges = UnmergedChangesInboxes()
    }

    /// Checks each configuration's name, that none is given twice, and that its schema's models are the container's.
    private static func validate(_ configurations: [any DataStoreConfiguration], of schema: Schema) throws {
        var given: [ModelConfiguration] = []
        for configuration in configurations {
            try configuration.validate()
            if let model = configuration as? ModelConfiguration {
                if given.contains(model) {
                    throw StrataError.invalidConfiguration(
                        name: model.name, kind: .duplicateConfiguration,
                        reason: "it is given twice; each configuration describes one store, so give it once")
                }
                given.append(model)
            }
            guard let stored = configuration.schema else { continue }
            let known = Set(schema.entities.map(\.name))
            if let missing = stored.entities.first(where: { !known.contains($0.name) }) {
                throw StrataError.invalidConfiguration(
                    name: configuration.name, kind: .configurationSchemaNotFoundInContainerSchema,
                    reason: "its schema holds \(missing.name), which the container's schema doesn't")
            }
        }
    }

    /// Creates a container for model classes over the store a configuration describes (SwiftData's custom-store
    /// initializer).
    ///
    /// ```swift
    /// let container = try ModelContainer(for: Book.self, configurations: PostgresConfiguration(url: url))
    /// ```
    ///
    /// - Throws: as `init(for:migrationPlan:configurations:)` with a `Schema`.
    public convenience init(
        for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: any DataStoreConfiguration...
    ) throws {
        try self.init(for: Schema(forTypes), migrationPlan: migrationPlan, configurations: configurations)
    }

    /// A container over a store that is being migrated, for a custom migration stage's context.
    package init(schema: Schema, store: any PersistentStore) {
        self.schema = schema
        self.configurations = [ModelConfiguration(isStoredInMemoryOnly: true)]
        self.migrationPlan = nil
        self.store = store
        self.ownsStore = false
        self.saveObservers = ModelContainerSaveObservers()
        self.unmergedChanges = UnmergedChangesInboxes()
    }

    /// The container that takes over the store of `predecessor`, released while its main context is still in use;
    /// `mainContext` is that context, which keeps the new container alive.
    init(succeeding predecessor: ModelContainer, mainContext: ModelContext) {
        self.schema = predecessor.schema
        self.configurations = predecessor.configurations
        self.migrationPlan = predecessor.migrationPlan
        self.store = predecessor.store
        self.ownsStore = predecessor.ownsStore
        self.saveObservers = predecessor.saveObservers
        self.unmergedChanges = predecessor.unmergedChanges
        self.inheritedMainContext = mainContext
    }

    deinit {
        if !handOverToMainContext() { closeOnRelease() }
    }

    /// The context bound to the main actor, created on first use, with autosave enabled.
    @MainActor public var mainContext: ModelContext {
        if let lazyMainContext { return lazyMainContext }
        if let inheritedMainContext { return inheritedMainContext }
        let context = ModelContext(self, isMainContext: true)
        lazyMainContext = context
        return context
    }
}
