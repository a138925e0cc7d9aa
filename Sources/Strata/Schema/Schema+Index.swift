extension Schema {
    /// The indices `#Index` declares for a model class, each of a kind (``Types``) and over one or more of the
    /// model's properties, as SwiftData describes them.
    ///
    /// ```swift
    /// #Index<Place>(.binary([\.name]), .rtree([\.latitude, \.longitude]))
    /// ```
    ///
    /// Strata creates an ordinary (B-tree) index for each kind, on SQLite and PostgreSQL alike: see ``Types/rtree(_:)``.
    public final class Index<T: PersistentModel>: @unchecked Sendable {
        // `@unchecked` because of the key paths, which are immutable.
        /// The kind of an index and the properties it covers, in order.
        public enum Types<P: PersistentModel>: @unchecked Sendable, Hashable {
            // `@unchecked` because of the key paths, which are immutable.
            /// An ordinary index over the properties, in order: what a sort by them, an equality or a range on the
            /// first of them, reads.
            case binary([PartialKeyPath<P>])
            /// An R-tree index, for ranges over several numeric properties at once (a bounding box of latitudes and
            /// longitudes). Strata creates an ordinary index over the same properties instead, on both stores:
            /// SQLite's R-trees are virtual tables of their own rather than indexes of a table's columns, and a
            /// PostgreSQL GiST index over plain numeric columns needs the `btree_gist` extension. Queries answer the
            /// same; a range over several of the properties searches the index by the first one.
            case rtree([PartialKeyPath<P>])

            /// The key paths of the properties the index covers, as `#Index` records them. Used by the code
            /// `#Index` generates.
            public var _$strataKeyPaths: [AnyKeyPath] {
                switch self {
                case .binary(let keyPaths), .rtree(let keyPaths): return keyPaths
                }
            }
        }

        /// The indices, in the order declared.
        public let indices: [Types<T>]

        /// Describes indices of the given kinds.
        public init(_ indices: Types<T>...) {
            self.indices = indices
        }

        /// The indices decoding read.
        init(decoded indices: [Types<T>]) {
            self.indices = indices
        }

        /// Describes binary indices, each over the properties listed.
        public init(_ binaryIndices: [PartialKeyPath<T>]...) {
            self.indices = binaryIndices.map { .binary($0) }
        }
    }
}

extension Schema.Index: Hashable {
    /// Two descriptions are equal when they declare the same indices of the same kinds, in the same order.
    public static func == (lhs: Schema.Index<T>, rhs: Schema.Index<T>) -> Bool { lhs.indices == rhs.indices }

    /// Hashes the indices.
    public func hash(into hasher: inout Hasher) { hasher.combine(indices) }
}
