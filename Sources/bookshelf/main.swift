import BookshelfCore
import Foundation

// bookshelf: everything lives in BookshelfCore so that tests can import it.
exit(await Bookshelf.main(Array(CommandLine.arguments.dropFirst())))
