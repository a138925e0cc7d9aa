import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// How urgent a `FormatTask` is, stored by raw value.
enum FormatStatus: String, Codable, CaseIterable {
    case open, waiting, done
}

/// The seed's task: the model most translation tests query.
@Model
final class FormatTask {
    var title: String
    var notes: String?
    var isCompleted: Bool
    var dueDate: Date
    var priority: Int
    var estimate: Double
    var cost: Decimal
    var code: UUID
    var status: FormatStatus
    var project: FormatProject?
    @Relationship(inverse: \FormatTag.tasks) var tags: [FormatTag] = []

    init(
        title: String, notes: String? = nil, isCompleted: Bool = false,
        dueDate: Date = Date(timeIntervalSinceReferenceDate: 0),
        priority: Int = 0, estimate: Double = 0, cost: Decimal = 0, code: UUID = UUID(), status: FormatStatus = .open
    ) {
        self.title = title
        self.notes = notes
        self.isCompleted = isCompleted
        self.dueDate = dueDate
        self.priority = priority
        self.estimate = estimate
        self.cost = cost
        self.code = code
        self.status = status
    }
}

/// A project holding tasks.
@Model
final class FormatProject {
    var name: String
    @Relationship(inverse: \FormatTask.project) var tasks: [FormatTask] = []

    init(name: String) { self.name = name }
}

/// A tag on many tasks.
@Model
final class FormatTag {
    var name: String
    var tasks: [FormatTask] = []

    init(name: String) { self.name = name }
}

/// The seed's journal entry.
@Model
final class JournalEntry {
    var title: String
    var content: String

    init(title: String, content: String) {
        self.title = title
        self.content = content
    }
}

enum TranslationFixture {
    /// The `FormatTask` entity of a schema holding every fixture model.
    static func taskEntity() throws -> Schema.Entity {
        try #require(
            Schema([FormatTask.self, FormatProject.self, FormatTag.self, JournalEntry.self]).entity(
                for: FormatTask.self))
    }

    /// The SQL and bindings a format predicate on `FormatTask` translates to.
    static func sql(_ format: String, _ arguments: any Sendable...) throws -> (sql: String, bindings: [StoredValue]) {
        let predicate = FormatPredicate(format: format, argumentArray: arguments)
        return try FormatTranslator.translate(predicate, entity: try taskEntity()).sql.render(in: SQLiteDialect())
    }

    /// A fresh store of `kind` for every fixture model (in memory for SQLite).
    static func context(_ kind: StoreKind = .sqlite) throws -> ModelContext {
        ModelContext(try freshContainer(kind, FormatTask.self, FormatProject.self, FormatTag.self, JournalEntry.self))
    }

    /// A saved store of `kind` of tasks with varied values, in two projects, with tags.
    static func seededContext(_ kind: StoreKind = .sqlite) throws -> ModelContext {
        let context = try context(kind)
        let home = FormatProject(name: "Home"), work = FormatProject(name: "Work")
        let urgent = FormatTag(name: "Urgent"), later = FormatTag(name: "later")
        let tasks = [
            FormatTask(
                title: "Café order", notes: "oat milk", dueDate: date(3), priority: 2, estimate: 0.5,
                cost: Decimal(string: "4.50")!,
                status: .open),
            FormatTask(
                title: "ÉCOLE forms", notes: nil, isCompleted: true, dueDate: date(1), priority: 3, estimate: 2,
                cost: 12,
                status: .done),
            FormatTask(
                title: "école pickup", notes: "3pm", dueDate: date(2), priority: 1, estimate: 1, cost: 0,
                status: .waiting),
            FormatTask(
                title: "Tax return", notes: "Deadline is near", dueDate: date(5), priority: 5, estimate: 8,
                cost: Decimal(string: "120.25")!,
                status: .open),
            FormatTask(
                title: "file10", notes: "", isCompleted: true, dueDate: date(4), priority: 0, estimate: 0.25, cost: 1,
                status: .done),
            FormatTask(
                title: "file2", notes: "a*b?c", dueDate: date(4), priority: 2, estimate: 3,
                cost: Decimal(string: "1.0")!,
                status: .waiting),
        ]
        for task in tasks { context.insert(task) }
        context.insert(home)
        context.insert(work)
        tasks[0].project = home
        tasks[2].project = home
        tasks[3].project = work
        tasks[4].project = work
        tasks[0].tags = [urgent]
        tasks[3].tags = [urgent, later]
        tasks[5].tags = [later]
        try context.save()
        return context
    }

    /// A date `days` days after 2001-01-01.
    static func date(_ days: Int) -> Date {
        Date(timeIntervalSinceReferenceDate: Double(days) * 86_400)
    }

    /// The titles of the tasks the store matches, sorted.
    static func titles(_ predicate: FormatPredicate, in context: ModelContext) throws -> [String] {
        try context.fetch(FetchDescriptor<FormatTask>(predicate: predicate)).map(\.title).sorted()
    }

    /// The titles the in-memory evaluator matches over every stored task, sorted.
    static func evaluatedTitles(_ predicate: FormatPredicate, in context: ModelContext) throws -> [String] {
        let entity = try #require(context.container.schema.entity(for: FormatTask.self))
        let condition = try FormatTranslator.translate(predicate, entity: entity)
        return try context.fetch(FetchDescriptor<FormatTask>()).filter {
            try QueryEvaluator(entity: entity, backingData: $0.persistentBackingData).isSatisfied(condition)
        }.map(\.title).sorted()
    }

    /// The titles the store matches, after checking the evaluator agrees.
    @discardableResult
    static func expectTitles(
        _ format: String, _ arguments: any Sendable..., in context: ModelContext, _ expected: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        let predicate = FormatPredicate(format: format, argumentArray: arguments)
        let store = try titles(predicate, in: context)
        #expect(store == expected.sorted(), "\(format)", sourceLocation: sourceLocation)
        #expect(
            try evaluatedTitles(predicate, in: context) == store, "evaluator vs store: \(format)",
            sourceLocation: sourceLocation)
        return store
    }
}
