import Foundation

// `$0 is Dog`, `$0 as? Dog` and `$0 as! Dog` over a model hierarchy. A hierarchy's rows share one table, whose
// entity column names each row's entity, and a subentity's own columns hold NULL in every other entity's rows: a
// type check is a test of the entity column, and a cast needs no SQL of its own — a property of the subclass read
// through it (`($0 as? Dog)?.breed`) is its column, NULL (as the cast's `nil`) wherever the row isn't a `Dog`.

extension PredicateExpressions.TypeCheck: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        guard case .model(let path) = try translator.operand(input) else {
            throw translator.unsupported(self, "only a model can be tested with 'is' in the store")
        }
        let entity = path.hops.last?.destination ?? translator.entity
        switch translator.cast(entity, to: Desired.self) {
        case .always: return .constant(true)
        case .never: return .constant(false)
        case .subentity(let desired):
            let test = Schema.Entity.entityFilter(desired.selfAndDescendants)
            return .query(path.hops.isEmpty ? test : .related(path, test))
        }
    }
}

extension PredicateExpressions.ConditionalCast: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        try translator.castModel(input, to: Desired.self, in: self)
    }
}

extension PredicateExpressions.ForceCast: QueryTranslatable {
    // As with `!`, a failed cast reads as nil in SQL rather than stopping the query.
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        try translator.castModel(input, to: Desired.self, in: self)
    }
}

extension PredicateTranslator {
    /// What a cast of a model of `entity` to `type` can give.
    package enum CastOutcome {
        /// `type` is the entity's class or a superclass: every model is one.
        case always
        /// `type` is no class of the hierarchy below the entity: no model is one.
        case never
        /// `type` is the class of `entity`, a subentity: the rows of it and its subentities.
        case subentity(Schema.Entity)
    }

    package func cast(_ entity: Schema.Entity, to type: Any.Type) -> CastOutcome {
        if let desired = type as? AnyObject.Type, isClass(entity.modelType, kindOf: desired) {
            return .always
        }
        if let desired = entity.selfAndDescendants.first(where: { $0.modelType == type }) { return .subentity(desired) }
        return .never
    }

    /// The model `input` reads, seen as a `type`: the same model, whose subclass properties `member(_:of:in:)` finds
    /// among the subentities; a constant `nil` when no model can be one.
    func castModel(_ input: Any, to type: Any.Type, in expression: Any) throws -> TranslatedOperand {
        guard case .model(let path) = try operand(input) else {
            throw unsupported(expression, "only a model can be cast in the store")
        }
        if case .never = cast(path.hops.last?.destination ?? entity, to: type) {
            return .constant(Optional<Int>.none as Any)
        }
        return .model(path)
    }
}
