import Foundation

/// The `YYYY-MM-DD` day format used on screen and by the scripting commands, in UTC.
enum DayFormat {
    /// `date` as `YYYY-MM-DD`.
    static func string(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day())
    }

    /// `date` to the second, as `YYYY-MM-DD HH:MM:SS UTC`.
    static func timestamp(_ date: Date) -> String {
        date.formatted(
            .iso8601.year().month().day().dateTimeSeparator(.space).time(includingFractionalSeconds: false)
                .timeZone(separator: .omitted)
        ).replacingOccurrences(of: "Z", with: " UTC")
    }

    /// The start of the day `text` names (`YYYY-MM-DD`), or `nil` when it isn't one.
    static func date(_ text: String) -> Date? {
        try? Date.ISO8601FormatStyle().year().month().day().parse(text)
    }
}
