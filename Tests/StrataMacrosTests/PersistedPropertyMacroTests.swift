import Testing

@Suite("@_PersistedProperty expansion")
struct PersistedPropertyMacroTests {
    @Test("A persisted property routes through the backing data with observation and an init accessor")
    func accessorsAndSlot() {
        let result = expand(
            """
            final class Book {
                @_PersistedProperty var title: String
            }
            """, only: ["_PersistedProperty"])
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.source == """
                final class Book {
                    var title: String {
                        @storageRestrictions(accesses: persistentBackingData, initializes: _title)
                        init(initialValue) {
                            persistentBackingData.setInitialValue(initialValue, for: Self._$BookProperties.`title`)
                            _title = Strata._PersistedSlot()
                        }
                        @inline(__always) get {
                            Swift.Unmanaged.passUnretained(persistentBackingData)._withUnsafeGuaranteedRef {
                                $0.access(self, keyPath: Self._$BookProperties.`title`.keyPath)
                                return $0.getValue(for: Self._$BookProperties.`title`)
                            }
                        }
                        set {
                            Swift.Unmanaged.passUnretained(persistentBackingData)._withUnsafeGuaranteedRef { data in
                                data.withMutation(of: self, keyPath: Self._$BookProperties.`title`.keyPath) {
                                    data.setValue(newValue, for: Self._$BookProperties.`title`, on: self)
                                }
                            }
                        }
                    }

                    @ObservationIgnored private var _title: Strata._PersistedSlot
                }
                """)
    }

    @Test("willSet and didSet run in the setter, around the write, with Swift's names or the ones written")
    func observersMoveIntoTheSetter() throws {
        let result = expand(
            """
            final class Counter {
                @_PersistedProperty var count: Int = 0 {
                    willSet(next) { guard next > 0 else { return }; log(next) }
                    didSet { log(oldValue) }
                }
                @_PersistedProperty var name: String = "" { didSet { log(name) } }
            }
            """, only: ["_PersistedProperty"])
        #expect(result.diagnostics.isEmpty)
        let source = result.source
        let count = "Self._$CounterProperties.`count`"
        let oldValue = try #require(
            source.firstRange(of: "let oldValue = persistentBackingData.getValue(for: \(count))"))
        let next = try #require(source.firstRange(of: "let next = newValue"))
        let willSet = try #require(source.firstRange(of: "_ = { () -> Void in\n                guard next > 0 else {"))
        let write = try #require(source.firstRange(of: "data.setValue(newValue, for: \(count), on: self)"))
        let didSet = try #require(source.firstRange(of: "_ = { () -> Void in\n                log(oldValue)"))
        #expect(oldValue.lowerBound < next.lowerBound)
        #expect(next.lowerBound < willSet.lowerBound)
        #expect(willSet.lowerBound < write.lowerBound)
        #expect(write.lowerBound < didSet.lowerBound)
        // A didSet that doesn't name the old value doesn't read it, as in Swift.
        #expect(!source.contains("let oldValue = persistentBackingData.getValue(for: Self._$CounterProperties.`name`)"))
        #expect(source.contains("log(name)"))
    }

    @Test("The whole pipeline gives every persisted property its slot and accessors, and no others")
    func fullPipeline() {
        let result = expand(
            """
            @Model final class Counter {
                var value: Int = 0
                @Transient var cache: Int = 0
                var doubled: Int { value * 2 }
            }
            """)
        #expect(result.diagnostics.isEmpty)
        #expect(result.source.contains("@ObservationIgnored private var _value: Strata._PersistedSlot"))
        #expect(result.source.contains("$0.getValue(for: Self._$CounterProperties.`value`)"))
        #expect(
            result.source.contains(
                "nonisolated struct _$CounterPropertyList {\n        let `value` = Counter._$valueProperty\n    }"))
        #expect(result.source.contains("nonisolated static let _$CounterProperties = _$CounterPropertyList()"))
        #expect(!result.source.contains("_cache"))
        #expect(!result.source.contains("_doubled"))
        #expect(result.source.contains("var doubled: Int { value * 2 }"))
    }

    @Test("Written on something that isn't a single stored var, it adds nothing")
    func ignoresOtherDeclarations() {
        let source = """
            final class Book {
                @_PersistedProperty var shout: String { "" }
                @_PersistedProperty let id: Int = 1
            }
            """
        let result = expand(source, only: ["_PersistedProperty"])
        #expect(result.diagnostics.isEmpty)
        #expect(!result.source.contains("Strata."))
    }
}

@Suite("@Model with unusual names")
struct UnusualNameTests {
    @Test("A backticked property name produces valid generated identifiers")
    func backtickedName() {
        let result = expand(
            """
            @Model final class Setting {
                var `default`: Int = 0
            }
            """)
        #expect(result.diagnostics.isEmpty)
        #expect(
            result.source.contains(
                #"nonisolated static let _$defaultProperty = Strata.PersistentProperty(index: 0, name: "default", keyPath: \Setting.default, metadata: nil)"#
            ))
        #expect(result.source.contains("let `default` = Setting._$defaultProperty"))
        #expect(result.source.contains("$0.getValue(for: Self._$SettingProperties.`default`)"))
        #expect(result.source.contains("@ObservationIgnored private var _default: Strata._PersistedSlot"))
        #expect(result.source.contains("self._default = Strata._PersistedSlot()"))
    }
}
