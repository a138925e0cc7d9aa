import Foundation
import SwiftData

// A hierarchy written as SwiftData's inheritance article writes one: a base model, subclasses of it, and a
// subclass of a subclass.
@Model class Animal {
    var name: String
    var legs: Int = 4
    var keeper: Keeper?

    init(name: String, legs: Int = 4) {
        self.name = name
        self.legs = legs
    }
}

@Model class Dog: Animal {
    var breed: String
    var isTrained = false

    init(name: String, breed: String) {
        self.breed = breed
        super.init(name: name)
    }
}

@Model final class Puppy: Dog {
    var ageInWeeks: Int

    init(name: String, breed: String, ageInWeeks: Int) {
        self.ageInWeeks = ageInWeeks
        super.init(name: name, breed: breed)
    }
}

@Model final class Cat: Animal {
    var lives: Int = 9
    var indoor: Bool?

    init(name: String, lives: Int = 9) {
        self.lives = lives
        super.init(name: name)
    }
}

@Model final class Keeper {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Animal.keeper) var animals: [Animal] = []
    var favourite: Animal?

    init(name: String) { self.name = name }
}
