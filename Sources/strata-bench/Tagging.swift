import Foundation
import Strata

/// The many-to-many workload's models: photos and the tags they carry, each side listing the other.
@Model
final class Photo {
    var number: Int
    var caption: String
    @Relationship(inverse: \Tag.photos) var tags: [Tag] = []

    init(number: Int) {
        self.number = number
        caption = "photo-\(number)"
    }
}

@Model
final class Tag {
    var number: Int
    var name: String
    var photos: [Photo] = []

    init(number: Int) {
        self.number = number
        name = "tag-\(number)"
    }
}

/// The shape of the many-to-many workload's store: `photos` photos with `tagsPerPhoto` of `tags` tags each.
struct TaggingShape {
    var photos: Int
    var tags = 100
    var tagsPerPhoto = 3

    /// The tags of photo `number`: `tagsPerPhoto` distinct tags, 7 apart.
    func tags(ofPhoto number: Int) -> [Int] {
        (0..<tagsPerPhoto).map { (number + $0 * 7) % tags }
    }
}
