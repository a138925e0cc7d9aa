import Strata
@Model final class Book {}
print(Book.strataHello)
