import Foundation
import Strata
import StrataTestSupport

// Shapes of the entities `Trip`, `Stop` and `Tag` the inferred-migration tests evolve through, one namespace each.

enum TripBase {
    @Model final class Trip {
        var name: String
        var days: Int32
        var note: String?
        init(name: String, days: Int32, note: String? = nil) { self.name = name; self.days = days; self.note = note }
    }
}

enum TripAddedOptional {
    @Model final class Trip {
        var name: String
        var days: Int32
        var note: String?
        var budget: Double?
        init(name: String) { self.name = name; self.days = 0 }
    }
}

enum TripAddedDefault {
    @Model final class Trip {
        var name: String
        var days: Int32
        var note: String?
        var rating: Int = 3
        var currency: String = "EUR"
        init(name: String) { self.name = name; self.days = 0 }
    }
}

enum TripAddedRequired {
    @Model final class Trip {
        var name: String
        var days: Int32
        var note: String?
        var country: String
        init(name: String, country: String) { self.name = name; self.days = 0; self.country = country }
    }
}

enum TripRemovedNote {
    @Model final class Trip {
        var name: String
        var days: Int32
        init(name: String) { self.name = name; self.days = 0 }
    }
}

enum TripRenamed {
    @Model final class Trip {
        @Attribute(originalName: "name") var title: String
        var days: Int32
        var note: String?
        init(title: String) { self.title = title; self.days = 0 }
    }
}

enum TripWidened {
    @Model final class Trip {
        var name: String
        var days: Int
        var note: String?
        init(name: String) { self.name = name; self.days = 0 }
    }
}

enum TripNoteRequired {
    @Model final class Trip {
        var name: String
        var days: Int32
        var note: String = "none"
        init(name: String) { self.name = name; self.days = 0 }
    }
}

enum TripNoteRequiredWithoutDefault {
    @Model final class Trip {
        var name: String
        var days: Int32
        var note: String
        init(name: String) { self.name = name; self.days = 0; self.note = "" }
    }
}

enum TripNameOptional {
    @Model final class Trip {
        var name: String?
        var days: Int32
        var note: String?
        init(name: String) { self.name = name; self.days = 0 }
    }
}

enum TripDaysAsText {
    @Model final class Trip {
        var name: String
        var days: String
        var note: String?
        init(name: String) { self.name = name; self.days = "" }
    }
}

enum TripUnique {
    @Model final class Trip {
        @Attribute(.unique) var name: String
        var days: Int32
        var note: String?
        init(name: String) { self.name = name; self.days = 0 }
    }
}

enum TripIndexed {
    @Model final class Trip {
        #Index<Trip>([\.name, \.days])
        var name: String
        var days: Int32
        var note: String?
        init(name: String) { self.name = name; self.days = 0 }
    }
}

enum TripWithStops {
    @Model final class Trip {
        var name: String
        var days: Int32
        var note: String?
        @Relationship(deleteRule: .cascade, inverse: \Stop.trip) var stops: [Stop] = []
        init(name: String) { self.name = name; self.days = 0 }
    }

    @Model final class Stop {
        var place: String
        var trip: Trip?
        init(place: String) { self.place = place }
    }
}

/// Stops whose trip's delete rule is `.noAction`: no foreign key, so a stop may outlive its trip.
enum TripWithLooseStops {
    @Model final class Trip {
        var name: String
        var days: Int32
        var note: String?
        @Relationship(deleteRule: .noAction, inverse: \Stop.trip) var stops: [Stop] = []
        init(name: String) { self.name = name; self.days = 0 }
    }

    @Model final class Stop {
        var place: String
        var trip: Trip?
        init(place: String) { self.place = place }
    }
}

enum TripWithNullifiedStops {
    @Model final class Trip {
        var name: String
        var days: Int32
        var note: String?
        @Relationship(deleteRule: .nullify, inverse: \Stop.trip) var stops: [Stop] = []
        init(name: String) { self.name = name; self.days = 0 }
    }

    @Model final class Stop {
        var place: String
        var trip: Trip?
        init(place: String) { self.place = place }
    }
}

enum TripWithTags {
    @Model final class Trip {
        var name: String
        var days: Int32
        var note: String?
        var tags: [Tag] = []
        init(name: String) { self.name = name; self.days = 0 }
    }

    @Model final class Tag {
        var label: String
        var trips: [Trip] = []
        init(label: String) { self.label = label }
    }
}

enum TripWithRenamedTags {
    @Model final class Trip {
        var name: String
        var days: Int32
        var note: String?
        @Relationship(originalName: "tags") var labels: [Tag] = []
        init(name: String) { self.name = name; self.days = 0 }
    }

    @Model final class Tag {
        var label: String
        var trips: [Trip] = []
        init(label: String) { self.label = label }
    }
}

enum TripTagsOnly {
    @Model final class Tag {
        var label: String
        init(label: String) { self.label = label }
    }
}
