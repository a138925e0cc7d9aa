/// The models a `ResultsObserver` currently shows, in order: a random-access collection to hand to a list.
///
/// A value: it doesn't change after you get it; the observer replaces its `results` with a new one on every
/// refresh. (Core Data's name for what `@FetchRequest` publishes.)
///
/// ```swift
/// for book in observer.results { print(book.title) }
/// let first = observer.results.first
/// ```
public struct FetchedResults<Element: PersistentModel>: RandomAccessCollection {
    private let models: [Element]

    /// Wraps fetched models.
    package init(_ models: [Element]) {
        self.models = models
    }

    /// The position of the first model.
    public var startIndex: Int { models.startIndex }
    /// The position after the last model.
    public var endIndex: Int { models.endIndex }
    /// The model at `position`.
    public subscript(position: Int) -> Element { models[position] }

    /// The models' identifiers, in order.
    public var identifiers: [PersistentIdentifier] { models.map(\.persistentModelID) }
}
