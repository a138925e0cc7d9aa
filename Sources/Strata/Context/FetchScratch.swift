/// Room that a run of fetches of the same size reuses from one fetch to the next: `enumerate` makes one for all its
/// pages.
///
/// A page's new models are listed with their keys until they are registered (`RowMaterializer.made`); that list
/// takes 48 bytes a model, a quarter of a megabyte for a page of 5,000. Allocating and freeing it for every page made
/// the allocator merge the freed memory of the previous page's models (glibc consolidates its small free chunks
/// whenever a large chunk is allocated or freed) instead of reusing it for the next page's.
final class FetchScratch {
    /// The new models' list, empty between fetches, with the room the largest page needed.
    var made: [(key: Int64, model: any PersistentModel)] = []
}
