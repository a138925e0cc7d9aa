/// One version of an app's models, as SwiftData declares it: a namespace (usually an enum) whose models are
/// declared inside it and keep their plain class name as their entity name (`SchemaV2.Trip` is the entity `Trip`).
///
/// ```swift
/// enum SchemaV2: VersionedSchema {
///     static let versionIdentifier = Schema.Version(2, 0, 0)
///     static var models: [any PersistentModel.Type] { [Trip.self] }
///
///     @Model final class Trip {
///         var name: String
///         var rating: Int = 0
///         init(name: String) { self.name = name }
///     }
/// }
/// typealias Trip = SchemaV2.Trip
/// ```
public protocol VersionedSchema: SendableMetatype {
    /// The version, recorded in the store this schema writes.
    static var versionIdentifier: Schema.Version { get }
    /// The model classes of this version.
    static var models: [any PersistentModel.Type] { get }
}

extension Schema {
    /// Creates the schema of one version of the models.
    public convenience init(versionedSchema: any VersionedSchema.Type) {
        self.init(
            versionedSchema.models, version: versionedSchema.versionIdentifier,
            versionIdentifier: versionedSchema.versionIdentifier)
    }
}
