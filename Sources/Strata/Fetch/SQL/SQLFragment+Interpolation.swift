/// SQL written as a string literal, with identifiers, bound values and other fragments interpolated as what they
/// are, so that no value is ever spliced into the text and placeholders are numbered by the dialect when the whole
/// statement is rendered:
///
/// ```swift
/// let newest: SQLFragment = "SELECT max(\(identifier: "id")) FROM (\(selection)) WHERE \(identifier: "author") = \(bind: .text(name))"
/// ```
///
/// The literal parts are SQL text; a plain `String` can only be interpolated as an identifier or a bound value.
extension SQLFragment: ExpressibleByStringInterpolation {
    package init(stringLiteral sql: String) {
        self.init(sql: sql)
    }

    package init(stringInterpolation: StringInterpolation) {
        self.init(stringInterpolation.segments)
    }

    /// The segments of an interpolated literal.
    package struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var segments: [Segment] = []

        package init(literalCapacity: Int, interpolationCount: Int) {
            segments.reserveCapacity(interpolationCount * 2 + 1)
        }

        package mutating func appendLiteral(_ sql: String) {
            guard !sql.isEmpty else { return }
            segments.append(.text(sql))
        }

        /// Another fragment, its bindings numbered after the ones before it.
        package mutating func appendInterpolation(_ fragment: SQLFragment) {
            segments.append(contentsOf: fragment.segments)
        }

        /// A table or column name, quoted by the dialect.
        package mutating func appendInterpolation(identifier name: String) {
            segments.append(.identifier(name))
        }

        /// A bound value: a placeholder in the text, the value beside it.
        package mutating func appendInterpolation(bind value: StoredValue) {
            segments.append(.binding(value))
        }

        /// SQL text the code itself spells (a keyword chosen by a condition, an operator), never data.
        package mutating func appendInterpolation(sql text: String) {
            guard !text.isEmpty else { return }
            segments.append(.text(text))
        }
    }
}

extension DefaultStringInterpolation {
    /// A fragment written into a `String` puts its debug description into SQL text: give the literal the type
    /// `SQLFragment` instead, where the fragment keeps its identifiers and bound values. Deprecated rather than
    /// unavailable, because the type checker passes over an unavailable overload for the generic one without a
    /// word; the warning is what fails the build (every build is warning-free).
    @available(
        *, deprecated, message: "an SQLFragment in a String is its debug description, not SQL: build an SQLFragment"
    )
    package mutating func appendInterpolation(_ fragment: SQLFragment) {
        appendInterpolation(fragment as Any)
    }
}
