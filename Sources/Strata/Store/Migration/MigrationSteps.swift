/// The stages a store goes through from the schema it records to the container's models, each planned from the
/// description the previous one leaves. Store-neutral: a store's executor runs the steps in its own transaction.
package struct MigrationSteps {
    /// One planned stage.
    package struct Step {
        /// The stage: its target schema, kind and hooks.
        package let stage: ResolvedStage
        /// What the stage changes and how.
        package let plan: MigrationPlanner.Plan
        /// The description the stage starts from.
        package let from: StoredSchema
    }

    /// The container's models.
    package let schema: Schema
    /// The migration plan, if the container has one.
    package let plan: StoreMigrationPlan?
    /// Where the store is, for errors (a file path, or a redacted URL and schema).
    package let path: String
    /// The store's table layout.
    package let layout: any StoreTableLayout

    /// Planning for a container of `schema` with `plan`, over a store at `path` laid out by `layout`.
    package init(schema: Schema, plan: StoreMigrationPlan?, path: String, layout: any StoreTableLayout) {
        self.schema = schema
        self.plan = plan
        self.path = path
        self.layout = layout
    }

    /// The stages from `stored` to the models.
    ///
    /// - Throws: `StrataError.migrationRefused` for a change no stage makes losslessly,
    ///   `StrataError.unknownStoreVersion` for a store version the plan doesn't list.
    package func steps(from stored: StoredSchema) throws -> [Step] {
        var stages = try plan?.stages(from: stored, path: path, layout: layout) ?? []
        if stages.last?.to !== schema {
            // The container's own models, when they aren't the plan's newest schema object (usually no change).
            stages.append(
                ResolvedStage(
                    from: nil, to: schema, dropsRemovedEntities: false, willMigrate: nil, didMigrate: nil, kind: nil))
        }
        var current = stored
        var steps: [Step] = []
        for stage in stages {
            var planned = try MigrationPlanner(
                stored: current, target: stage.to, dropsRemovedEntities: stage.dropsRemovedEntities, path: path,
                layout: layout
            ).plan()
            planned.result.version = stage.to.versionIdentifier ?? current.version
            steps.append(Step(stage: stage, plan: planned, from: current))
            current = planned.result
        }
        return steps
    }

    /// Whether `steps` change anything in the store; `ignoringHistory` leaves out adding the history tables (a
    /// read-only open, which works without them).
    package static func needsMigration(_ steps: [Step], ignoringHistory: Bool = false) -> Bool {
        steps.contains { step in
            step.plan.actions.count > (ignoringHistory ? step.plan.historyActionCount : 0)
                || !step.plan.changes.isEmpty || step.plan.result.version != step.from.version
                || step.stage.willMigrate != nil || step.stage.didMigrate != nil
        }
    }

    /// The refusal of an open that may not write (read-only) of a store that `steps` would migrate, listing each
    /// change at `path`.
    package static func mismatch(_ steps: [Step], path: String) -> StrataError {
        .schemaMismatch(path: path, differences: steps.flatMap(\.plan.changes).map(\.description))
    }

    /// The stages of `steps` a dry run reports (those that change something, run hooks or move the version), with
    /// the statements and check queries `listing` spells for their actions.
    package static func plannedStages(
        _ steps: [Step], listing: ([MigrationAction]) throws -> (sql: [String], checks: [String])
    ) rethrows -> [MigrationStep] {
        let meaningful = steps.filter { step in
            !step.plan.changes.isEmpty || !step.plan.actions.isEmpty || step.stage.kind != nil
                || step.from.version != step.plan.result.version
        }
        return try meaningful.map { step in
            let (sql, checks) = try listing(step.plan.actions)
            return MigrationStep(
                kind: step.stage.kind.flatMap(MigrationStep.Kind.init(rawValue:)) ?? .inferred,
                fromVersion: step.from.version,
                toVersion: step.plan.result.version, changes: step.plan.changes, sql: sql, checks: checks)
        }
    }
}
