/// The weak reference to a context that all of its models share.
///
/// A model's backing data holds this object strongly rather than a weak reference of its own: retaining and
/// releasing one object costs less than forming and destroying a weak reference, for every model a fetch makes
/// and frees. When the context goes away, every model reads `nil` for it at once, as with weak references.
@usableFromInline
final class ModelContextReference {
    @usableFromInline weak var context: ModelContext?

    init() {}
}
