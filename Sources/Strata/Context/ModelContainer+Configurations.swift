import Foundation

extension ModelContainer {
    /// Opens the store, or stores, the configurations describe.
    ///
    /// One configuration opens one store holding the whole schema. Several spread the models over several
    /// stores, as in SwiftData: a configuration with a schema stores that schema's models, one without stores
    /// every model no other configuration names, and configurations naming the same file share one store. Each
    /// model lives in exactly one store; relationships and class hierarchies can't cross stores.
    ///
    /// - Throws: `StrataError.invalidConfiguration` when a model is in two configurations' schemas, in none, or
    ///   related to a model of another store; when file-sharing configurations disagree on `allowsSave`; or when
    ///   a migration plan is given for several stores. Whatever opening a store throws (stores opened before it
    ///   are closed again).
    static func openStores(
        for schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?,
        configurations: [any DataStoreConfiguration]
    ) throws -> any PersistentStore {
        guard configurations.count > 1 else {
            return try openStore(
                for: schema, migrationPlan: migrationPlan, configuration: configurations.first ?? ModelConfiguration())
        }
        let groups = try StoreGroup.assign(schema, to: configurations)
        guard groups.count > 1 else {
            return try openStore(for: schema, migrationPlan: migrationPlan, configuration: groups[0].configuration)
        }
        try refuseMigrationPlan(migrationPlan, forStoresOf: groups)
        var members: [RoutedStore.Member] = []
        do {
            for group in groups {
                let store = try openStore(
                    for: Schema(sharing: group.entities, of: schema), migrationPlan: nil,
                    configuration: group.configuration)
                members.append(RoutedStore.Member(store: store, configurationName: group.configuration.name))
            }
        } catch {
            for member in members { member.store.close(waitingForWatchers: true) }
            throw error
        }
        return RoutedStore(schema: schema, members: members)
    }

    /// Refuses a migration plan for several stores: its versioned schemas describe every model, each store holds
    /// some of them.
    /// - Throws: `StrataError.invalidConfiguration` when `migrationPlan` isn't `nil`.
    static func refuseMigrationPlan(
        _ migrationPlan: (any SchemaMigrationPlan.Type)?, forStoresOf groups: [StoreGroup]
    ) throws {
        guard migrationPlan != nil else { return }
        throw StrataError.invalidConfiguration(
            name: groups[0].configuration.name, kind: .loadIssueModelContainer,
            reason:
                "a migration plan can't be applied to a container of \(groups.count) stores (configurations "
                + groups.map { "'\($0.configuration.name)'" }.joined(separator: ", ")
                + "); migrate each store with a container of its configuration alone, then open them together")
    }

    /// Opens the store of one configuration: one of Strata's, or a third-party `DataStore` through an adapter.
    private static func openStore(
        for schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?,
        configuration: any DataStoreConfiguration
    ) throws -> any PersistentStore {
        if let factory = configuration as? any DataStoreFactory {
            return try factory.makeStore(schema: schema, migrationPlan: migrationPlan.map(StoreMigrationPlan.init))
        }
        return try configuration.openCustomStore(schema: schema, migrationPlan: migrationPlan)
    }
}

/// The configurations that open one store, and the entities it holds.
struct StoreGroup {
    /// The configuration the store is opened with (the first of those naming its file).
    var configuration: any DataStoreConfiguration
    /// The names of every configuration of the group, for errors.
    var names: [String]
    /// Whether one of the configurations has no schema: the store then also holds the models nobody names.
    var takesTheRest: Bool
    /// The entities of the store, in the container schema's order.
    var entities: [Schema.Entity] = []

    private var described: String { names.map { "'\($0)'" }.joined(separator: " and ") }

    /// Groups the configurations by the store they open and gives each of `schema`'s entities to one group.
    /// - Throws: `StrataError.invalidConfiguration`, as ``ModelContainer/openStores(for:migrationPlan:configurations:)``.
    static func assign(_ schema: Schema, to configurations: [any DataStoreConfiguration]) throws -> [StoreGroup] {
        var groups: [StoreGroup] = []
        var groupByFile: [String: Int] = [:]
        var claims: [String: Int] = [:]
        for configuration in configurations {
            var index = groups.count
            let model = configuration as? ModelConfiguration
            if let model, !model.isStoredInMemoryOnly {
                let file = model.url.standardizedFileURL.path
                if let existing = groupByFile[file] {
                    index = existing
                    if let first = groups[existing].configuration as? ModelConfiguration,
                        first.allowsSave != model.allowsSave
                    {
                        throw StrataError.invalidConfiguration(
                            name: model.name, kind: .loadIssueModelContainer,
                            reason:
                                "it names the store file \(file), as configuration '\(first.name)' does, but "
                                + "\(model.allowsSave ? "allows" : "doesn't allow") saves where '\(first.name)' "
                                + "\(first.allowsSave ? "does" : "doesn't"); configurations sharing a file agree on allowsSave"
                        )
                    }
                } else {
                    groupByFile[file] = index
                }
            }
            if index == groups.count {
                groups.append(StoreGroup(configuration: configuration, names: [], takesTheRest: false))
            }
            groups[index].names.append(configuration.name)
            guard let named = configuration.schema else {
                groups[index].takesTheRest = true
                continue
            }
            for entity in named.entities {
                if let other = claims[entity.name], other != index {
                    throw StrataError.invalidConfiguration(
                        name: configuration.name, kind: .loadIssueModelContainer,
                        reason:
                            "its schema holds \(entity.name), which configuration \(groups[other].described)'s "
                            + "schema holds too; each model lives in one store (a schema also holds every model its "
                            + "models' relationships reach)")
                }
                claims[entity.name] = index
            }
        }
        let rest = groups.firstIndex(where: \.takesTheRest)
        for entity in schema.entities {
            guard let index = claims[entity.name] ?? rest else {
                throw StrataError.invalidConfiguration(
                    name: groups[0].configuration.name, kind: .configurationSchemaNotFoundInContainerSchema,
                    reason:
                        "the container's schema holds \(entity.name), which no configuration's schema does; name it "
                        + "in one, or add a configuration without a schema to hold the rest")
            }
            claims[entity.name] = index
            groups[index].entities.append(entity)
        }
        try checkNothingCrossesStores(schema, claims: claims, groups: groups)
        return groups.filter { !$0.entities.isEmpty }
    }

    /// Refuses relationships and class hierarchies between entities of different stores.
    private static func checkNothingCrossesStores(
        _ schema: Schema, claims: [String: Int], groups: [StoreGroup]
    ) throws {
        for entity in schema.entities {
            guard let home = claims[entity.name] else { continue }
            if let base = entity.superentity, let baseHome = claims[base.name], baseHome != home {
                throw StrataError.invalidConfiguration(
                    name: groups[home].names[0], kind: .loadIssueModelContainer,
                    reason:
                        "it stores \(entity.name), a subclass of \(base.name), which configuration "
                        + "\(groups[baseHome].described) stores; a class hierarchy lives in one store")
            }
            for index in entity.relationshipInfos.keys.sorted() {
                guard let relationship = entity.relationshipInfos[index],
                    let targetHome = claims[relationship.destination.name], targetHome != home
                else { continue }
                throw StrataError.invalidConfiguration(
                    name: groups[home].names[0], kind: .loadIssueModelContainer,
                    reason:
                        "\(entity.name).\(relationship.name) relates \(entity.name) (configuration "
                        + "\(groups[home].described)) to \(relationship.destination.name) (configuration "
                        + "\(groups[targetHome].described)); a relationship can't cross stores, as in Core Data: "
                        + "keep both models in one configuration")
            }
        }
    }
}
