import Foundation

/// Assembles a key-path operand one component at a time, lifting `@` components into
/// ``FormatOperand/collectionOperation(_:_:_:)``. Shared by the parser and `%K` arguments.
struct FormatKeyPathBuilder {
    /// Where the key path starts.
    enum Root {
        /// The evaluated object (`name`, `SELF.name`, `%K`).
        case object
        /// A variable (`$t.name`).
        case variable(String)
        /// Another operand; only a collection operator may follow it (`SUBQUERY(…).@count`).
        case operand(FormatOperand)
    }

    /// Why a component was refused; the caller turns it into a positioned error.
    enum Failure {
        case unsupportedCollectionOperator(String)
        case keyAfterCount
        case keyAfterOperand
        case secondCollectionOperator
    }

    private var root: Root
    private var components: [String] = []
    private var operation: (base: FormatOperand, op: CollectionOperator, path: [String])?

    /// Starts a key path at `root`.
    init(root: Root) {
        self.root = root
    }

    /// Appends a component: `@name` for a collection operator, anything else as a key.
    mutating func append(_ component: String) -> Failure? {
        if component.hasPrefix("@") {
            return appendCollectionOperator(String(component.dropFirst()))
        }
        if var operation {
            guard operation.op != .count else { return .keyAfterCount }
            operation.path.append(component)
            self.operation = operation
            return nil
        }
        if case .operand = root { return .keyAfterOperand }
        components.append(component)
        return nil
    }

    private mutating func appendCollectionOperator(_ name: String) -> Failure? {
        guard operation == nil else { return .secondCollectionOperator }
        guard let op = CollectionOperator(rawValue: "@" + name.lowercased()) else {
            return .unsupportedCollectionOperator(name)
        }
        operation = (base: Self.operand(root: root, components: components), op: op, path: [])
        return nil
    }

    /// The finished operand.
    var operand: FormatOperand {
        if let operation {
            return .collectionOperation(operation.base, operation.op, operation.path)
        }
        return Self.operand(root: root, components: components)
    }

    private static func operand(root: Root, components: [String]) -> FormatOperand {
        switch root {
        case .object: components.isEmpty ? .evaluatedObject : .keyPath(components)
        case .variable(let name): components.isEmpty ? .variable(name) : .variableKeyPath(name, components)
        case .operand(let operand): operand
        }
    }

    /// The message for `failure`.
    static func message(for failure: Failure) -> String {
        switch failure {
        case .unsupportedCollectionOperator(let name):
            "Unsupported collection operator '@\(name)'; use @count, @sum, @avg, @min or @max"
        case .keyAfterCount: "@count cannot be followed by a key"
        case .keyAfterOperand: "Only a collection operator such as .@count can follow this expression"
        case .secondCollectionOperator: "A key path can hold only one collection operator"
        }
    }
}
