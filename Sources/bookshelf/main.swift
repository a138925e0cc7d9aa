print("bookshelf: coming soon")
