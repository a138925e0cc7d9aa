/// A persistent property with its value type erased, as the schema, the store and the query translator use it.
package protocol AnyPersistentProperty: Sendable {
    var index: Int { get }
    var name: String { get }
    var anyKeyPath: AnyKeyPath { get }
    var metadata: (any Sendable)? { get }
    var kind: PropertyKind { get }
    var isOptional: Bool { get }
    var valueType: Any.Type { get }
    var cachesDecodedValue: Bool { get }
    /// Whether the value is stored as JSON text through its `Codable` conformance (a composite attribute).
    var storesJSON: Bool { get }
    /// The cheap check that validates stored values of this property.
    var check: StoredValueCheck { get }
    /// Whether `stored` decodes to a value of this property.
    func accepts(_ stored: StoredValue) -> Bool
    /// Decodes `stored` into a value of this property, boxed.
    func decodeAny(_ stored: StoredValue) -> Any?
    /// Encodes a value of this property's type given as `Any`; `nil` when the value has another type.
    func encodeAny(_ value: Any) throws -> StoredValue?
    /// Tells the model's observers that this property changed (after a rollback, a refresh, or an inverse update).
    func notifyObservers(of model: any PersistentModel)
    /// Whether the property is a `let`, whose value lives in the model's own storage.
    var isConstant: Bool { get }
    /// Copies the value of a `let` property from `model`'s own storage into its backing data.
    func captureConstant(of model: any PersistentModel)
}

extension PersistentProperty: AnyPersistentProperty {
    package var anyKeyPath: AnyKeyPath { keyPath }
    package var kind: PropertyKind { codec.kind }
    package var isOptional: Bool { codec.isOptional }
    package var valueType: Any.Type { codec.valueType }
    package var cachesDecodedValue: Bool { codec.cachesDecodedValue }
    package var storesJSON: Bool { codec.storesJSON }
    package var check: StoredValueCheck { codec.check }

    package func accepts(_ stored: StoredValue) -> Bool {
        if let verdict = codec.check.accepts(stored, isOptional: codec.isOptional) { return verdict }
        return codec.decode(stored) != nil
    }

    package func decodeAny(_ stored: StoredValue) -> Any? {
        codec.decode(stored).map { $0 as Any }
    }

    package func notifyObservers(of model: any PersistentModel) {
        // A getter reports its read with the key path rooted at the class declaring the property (`Model`), which
        // for a property a subclass model inherits is a superclass of the model's own: the change is told with it.
        guard let declaringClass = Model.self as? any PersistentModel.Type else { return }
        func notify<Subject: PersistentModel>(as _: Subject.Type) {
            guard let subject = model as? Subject, let keyPath = keyPath as? KeyPath<Subject, Value> else { return }
            // Through the backing data, which skips a model that has no registrar, and so no observers.
            subject.persistentBackingData.withMutation(of: subject, keyPath: keyPath) {}
        }
        notify(as: declaringClass)
    }

    package func captureConstant(of model: any PersistentModel) {
        guard let typed = model as? Model else { return }
        let value = typed[keyPath: keyPath]
        let data = model.persistentBackingData
        switch codec.kind {
        case .attribute:
            data.store(value, at: index, codec: codec)
        case .toOne, .toMany:
            // A `let` relationship: its models become the relationship's targets, saved and kept in step as any.
            guard !data.relationshipTargets.contains(index) else { return }
            data.relationshipTargets[index] =
                (value as? any PersistentModel).map { [$0] } ?? (value as? [any PersistentModel]) ?? []
            data.changedRelationships.insert(index)
        }
    }

    package func encodeAny(_ value: Any) throws -> StoredValue? {
        guard let typed = value as? Value else { return nil }
        return try codec.encode(typed)
    }
}
