import Strata
import StrataTestSupport

/// A row that saves from several instances race over (and that a PostgreSQL session locks, see `BackgroundSave`).
@Model final class Dossier {
    var title: String
    var rating: Int
    init(title: String, rating: Int) { self.title = title; self.rating = rating }
}
