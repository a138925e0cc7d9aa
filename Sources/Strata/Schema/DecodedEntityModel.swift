import Observation

/// The model type of an entity decoded from an encoded schema (``Schema/Entity/init(from:)``), which describes a
/// model class without naming one. No store opens such an entity: a container refuses a decoded schema.
package final class DecodedEntityModel: PersistentModel {
    package var persistentBackingData: ModelBackingData
    package static var schemaMetadata: [Schema.PropertyMetadata] { [] }
    package var _$observationRegistrar: ObservationRegistrar { persistentBackingData.observationRegistrar }

    package init(backingData: ModelBackingData) {
        self.persistentBackingData = backingData
    }
}
