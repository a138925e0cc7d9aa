import Foundation

/// The key reference.
enum HelpScreen {
    static let lines: [StyledLine] = [
        StyledLine(" Keys", .bold),
        StyledLine(),
        StyledLine("   ↑ ↓ j k        move          PgUp PgDn   move by 10"),
        StyledLine("   Tab Shift-Tab  switch list   Enter       edit (books, journal) / toggle (tasks, to-dos)"),
        StyledLine("   a              add           d           delete (asks first)"),
        StyledLine("   /              search the journal as you type"),
        StyledLine("   f              filter tasks by category"),
        StyledLine("   C              clear all to-dos"),
        StyledLine("   ?              this help     q Ctrl-C    quit"),
        StyledLine(),
        StyledLine(" Authors counts each author's books in the store, most first.", .dim),
        StyledLine(" Lists follow the store: changes by other bookshelf processes appear within a second,", .dim),
        StyledLine(" highlighted briefly. Press any key to go back.", .dim),
    ]
}
