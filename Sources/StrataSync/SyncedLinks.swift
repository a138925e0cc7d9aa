import Strata

/// A change to one owner's links through one relationship, by identity: the owner's set becomes `base` (the set
/// the replica holds when `nil`), with `added` and without `removed`.
struct LinkEdit {
    /// The relationship's property index in the owner's entity.
    let index: Int
    /// The owner's identity.
    let owner: StoredValue
    var base: [StoredValue]?
    var added: [StoredValue] = []
    var removed: [StoredValue] = []
}

/// A link between two rows by identity, in its join table's column order.
struct IdentityLink: Hashable {
    let first: StoredValue
    let second: StoredValue

    init(owner: StoredValue, target: StoredValue, of link: SyncedEntity.Link) {
        (first, second) = link.ownerIsFirst ? (owner, target) : (target, owner)
    }

    /// The other end of the link when `owner` is the end on `link`'s owner side, else `nil`.
    func target(ofOwner owner: StoredValue, through link: SyncedEntity.Link) -> StoredValue? {
        link.ownerIsFirst ? (first == owner ? second : nil) : (second == owner ? first : nil)
    }
}

extension SyncedEntity {
    /// The keys of the owners whose links through `link` changed in `history` (inserted rows included).
    func owners(of link: Link, changedIn history: SyncedHistory) -> [Int64] {
        (history.changedKeys[entity.name] ?? [:]).compactMap { $0.value.contains(link.index) ? $0.key : nil }
    }

    /// The keys each of `owners` links to through `link` in `store`'s join table: every owner present, with an
    /// empty set when it has no links.
    func linkedKeys(_ link: Link, owners: [Int64], in store: any SQLPersistentStore) throws -> [Int64: Set<Int64>] {
        var linked = Dictionary(owners.map { ($0, Set<Int64>()) }, uniquingKeysWith: { first, _ in first })
        for row in try store.fetchJoinRows(
            table: link.table, ownerColumn: link.ownerColumn, targetColumn: link.targetColumn, owners: owners)
        {
            linked[row.owner, default: []].insert(row.target)
        }
        return linked
    }
}

/// What a store's links are now for the owners a history names, beside the base they were last synced from: the
/// difference is what the store changed (see ``SyncLinkBase``).
struct LocalLinkChanges {
    /// One relationship's owners: each owner's target keys now and at the base.
    struct Relationship {
        let entity: SyncedEntity
        let link: SyncedEntity.Link
        var now: [Int64: Set<Int64>]
        var base: [Int64: Set<Int64>]
    }

    var relationships: [Relationship] = []

    /// Reads the links of every owner whose links `history` says changed, now in `store` and in `base`.
    init(
        _ history: SyncedHistory, entities: [SyncedEntity], store: any SQLPersistentStore, base: SyncLinkBase
    ) throws {
        for synced in entities {
            for link in synced.links.values.sorted(by: { $0.index < $1.index }) {
                let owners = synced.owners(of: link, changedIn: history)
                guard !owners.isEmpty else { continue }
                relationships.append(
                    Relationship(
                        entity: synced, link: link, now: try synced.linkedKeys(link, owners: owners, in: store),
                        base: try base.targets(of: link, owners: owners)))
            }
        }
    }

    /// The changes as edits by identity, by entity name, each adding and removing what differs from the base;
    /// owners and targets deleted since (no identity in `context`'s store) are left out.
    func edits(
        entities: [String: SyncedEntity], in context: ModelContext
    ) throws -> [String: [LinkEdit]] {
        let identities = try self.identities(entities: entities, in: context)
        var edits: [String: [LinkEdit]] = [:]
        for relationship in relationships {
            let name = relationship.entity.entity.name
            for (owner, now) in relationship.now {
                let base = relationship.base[owner] ?? []
                guard now != base, let ownerIdentity = identities[name]?[owner] else { continue }
                let targets = identities[relationship.link.destination] ?? [:]
                edits[name, default: []].append(
                    LinkEdit(
                        index: relationship.link.index, owner: ownerIdentity, base: nil,
                        added: now.subtracting(base).sorted().compactMap { targets[$0] },
                        removed: base.subtracting(now).sorted().compactMap { targets[$0] }))
            }
        }
        return edits
    }

    /// The links added and removed, by join table, by identity.
    func identityLinks(
        entities: [String: SyncedEntity], in context: ModelContext
    ) throws -> [String: (added: Set<IdentityLink>, removed: Set<IdentityLink>)] {
        let identities = try self.identities(entities: entities, in: context)
        var links: [String: (added: Set<IdentityLink>, removed: Set<IdentityLink>)] = [:]
        for relationship in relationships {
            let link = relationship.link
            let owners = identities[relationship.entity.entity.name] ?? [:]
            let targets = identities[link.destination] ?? [:]
            for (owner, now) in relationship.now {
                let base = relationship.base[owner] ?? []
                guard now != base, let ownerIdentity = owners[owner] else { continue }
                for key in now.subtracting(base) {
                    guard let target = targets[key] else { continue }
                    links[link.table, default: ([], [])].added.insert(
                        IdentityLink(owner: ownerIdentity, target: target, of: link))
                }
                for key in base.subtracting(now) {
                    guard let target = targets[key] else { continue }
                    links[link.table, default: ([], [])].removed.insert(
                        IdentityLink(owner: ownerIdentity, target: target, of: link))
                }
            }
        }
        return links
    }

    /// The identity of every key the relationships hold, by entity name and key.
    private func identities(
        entities: [String: SyncedEntity], in context: ModelContext
    ) throws -> [String: [Int64: StoredValue]] {
        var keys: [String: Set<Int64>] = [:]
        for relationship in relationships {
            keys[relationship.entity.entity.name, default: []].formUnion(relationship.now.keys)
            for targets in [relationship.now.values, relationship.base.values].joined() {
                keys[relationship.link.destination, default: []].formUnion(targets)
            }
        }
        var identities: [String: [Int64: StoredValue]] = [:]
        for (name, keys) in keys {
            guard let synced = entities[name] else { continue }
            identities[name] = try synced.identities(ofKeys: Array(keys), in: context)
        }
        return identities
    }
}

extension SyncedEntity {
    /// The links of each of `owners` (keys in `context`'s store, read from `store`'s join table) as edits that
    /// make another replica's set the same.
    func currentLinkEdits(
        _ link: Link, owners: [Int64], store: any SQLPersistentStore, entities: [String: SyncedEntity],
        in context: ModelContext
    ) throws -> [LinkEdit] {
        guard !owners.isEmpty, let destination = entities[link.destination] else { return [] }
        let linked = try linkedKeys(link, owners: owners, in: store)
        let ownerIdentities = try identities(ofKeys: owners, in: context)
        let targetIdentities = try destination.identities(
            ofKeys: Array(Set(linked.values.joined())), in: context)
        return linked.keys.sorted().compactMap { owner in
            guard let identity = ownerIdentities[owner] else { return nil }
            return LinkEdit(
                index: link.index, owner: identity,
                base: (linked[owner] ?? []).sorted().compactMap { targetIdentities[$0] })
        }
    }
}
