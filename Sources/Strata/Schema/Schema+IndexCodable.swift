extension Schema.Index: Codable {
    private enum CodingKeys: String, CodingKey {
        case indices
    }

    /// One index as written: its kind and its properties' names.
    private struct Written: Codable {
        let kind: String
        let properties: [String]
    }

    /// Writes each index's kind (`binary` or `rtree`) and the names of its properties, in order.
    ///
    /// - Throws: `EncodingError` when a key path names no persistent property of the model.
    public func encode(to encoder: any Encoder) throws {
        let entity = Schema.detachedEntity(for: T.self)
        let written = try indices.map { index in
            let keyPaths: [PartialKeyPath<T>]
            let kind: String
            switch index {
            case .binary(let paths): (kind, keyPaths) = ("binary", paths)
            case .rtree(let paths): (kind, keyPaths) = ("rtree", paths)
            }
            let names = try keyPaths.map { keyPath in
                guard let property = entity.property(for: keyPath) else {
                    throw EncodingError.invalidValue(
                        keyPath,
                        EncodingError.Context(
                            codingPath: encoder.codingPath,
                            debugDescription: "the index names \(entity.readableDescription(of: keyPath)), which is "
                                + "not a persistent property of \(entity.name)"))
                }
                return property.name
            }
            return Written(kind: kind, properties: names)
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(written, forKey: .indices)
    }

    /// Reads indices written by ``encode(to:)``, finding each property of the model by its name.
    ///
    /// - Throws: `DecodingError` when a kind is neither `binary` nor `rtree`, or a name is no persistent property
    ///   of the model.
    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let entity = Schema.detachedEntity(for: T.self)
        let indices = try container.decode([Written].self, forKey: .indices).map { written -> Types<T> in
            let keyPaths = try written.properties.map { name -> PartialKeyPath<T> in
                // A subclass's inherited properties come first, their key paths rooted at the subclass apart.
                let inherited = T._$strataInheritedKeyPaths
                let found = entity.property(named: name).map { property in
                    property.index < inherited.count ? inherited[property.index] : property.anyKeyPath
                }
                guard let keyPath = found as? PartialKeyPath<T> else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .indices, in: container,
                        debugDescription:
                            "the index names '\(name)', which is not a persistent property of \(entity.name)")
                }
                return keyPath
            }
            switch written.kind {
            case "binary": return .binary(keyPaths)
            case "rtree": return .rtree(keyPaths)
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: .indices, in: container,
                    debugDescription: "'\(written.kind)' is no index kind (binary or rtree)")
            }
        }
        self.init(decoded: indices)
    }
}
