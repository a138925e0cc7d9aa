import Strata

/// The SQL functions a PostgreSQL store creates in its schema, giving predicates Swift's semantics where
/// PostgreSQL's own operators differ (see docs/internals/PostgreSQL.md).
///
/// Text functions are exact for simple text, ASCII without carriage returns, where Foundation's and Swift's string
/// comparisons reduce to byte comparisons (and `lower` under the `C` collation is Foundation's case folding):
/// ``PostgresQueryWriter`` calls them only where `strata_is_simple` holds for their text arguments, and looks the
/// answers for other text up in what Swift computed for the query. They never raise, so the planner may evaluate
/// them ahead of the rows. Like SQLite's, every function gives NULL for a NULL argument. The SQL ones are single
/// expressions, not `STRICT` (a `CASE` gives the NULL where the body would otherwise answer, as `n = '' OR …`
/// does), so the planner inlines them into the query instead of calling a function per row (20× faster).
enum PostgresFunctions {
    /// The SQLSTATE a query fails with when it meets text its SQL can't compare and no answer was computed for it.
    static let unsupportedState = "SA001"

    /// The version of ``definitions`` a store records (`strata_metadata`'s `functions`): an open replaces the functions
    /// only when the store's differ, since replacing them takes locks that saves running meanwhile also need.
    static let definitionsVersion = String(
        definitions.map { $0.inlined(in: PostgreSQLDialect()) }.joined(separator: "\n").fnv1a, radix: 16)

    /// `CREATE OR REPLACE FUNCTION` statements, run by the bootstrap in the store's schema: each function's name an
    /// identifier, its arguments, result and body PostgreSQL's text, the values they name written as literals.
    static let definitions: [SQLFragment] =
        [
            """
            CREATE OR REPLACE FUNCTION \(identifier: "strata_is_simple")(t text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
              SELECT t IS NULL OR (octet_length(t) = length(t) AND strpos(t, chr(13)) = 0)
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION \(identifier: "strata_text_unanswered")(keys text[], answer anyelement, state text)
            RETURNS anyelement LANGUAGE plpgsql VOLATILE AS $$
            BEGIN
              IF array_position(keys, NULL) IS NOT NULL THEN RETURN answer; END IF;
              RAISE EXCEPTION 'no answer was computed for this text (it is not ASCII, or it changed after the answers were computed)'
                USING ERRCODE = state;
            END $$
            """,
            """
            CREATE OR REPLACE FUNCTION \(identifier: StrataSQLFunction.fold)(t text, flags bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
              SELECT CASE WHEN flags IS NULL THEN NULL WHEN flags & 1 = 1 THEN lower(t COLLATE "C") ELSE t END
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION \(identifier: StrataSQLFunction.contains)(h text, n text, flags bigint) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
              SELECT CASE WHEN h IS NULL OR flags IS NULL THEN NULL ELSE n = '' OR strpos(strata_fold(h, flags), strata_fold(n, flags)) > 0 END
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION \(identifier: StrataSQLFunction.beginsWith)(t text, p text, flags bigint) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
              SELECT starts_with(strata_fold(t, flags), strata_fold(p, flags))
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION \(identifier: StrataSQLFunction.endsWith)(t text, s text, flags bigint) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
              SELECT CASE WHEN t IS NULL OR flags IS NULL THEN NULL ELSE s = '' OR right(strata_fold(t, flags), length(s)) = strata_fold(s, flags) END
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION \(identifier: StrataSQLFunction.localizedStandardContains)(h text, n text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
              SELECT CASE WHEN h IS NULL THEN NULL ELSE n <> '' AND strpos(lower(h COLLATE "C"), lower(n COLLATE "C")) > 0 END
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION \(identifier: StrataSQLFunction.characterContains)(t text, o text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
              SELECT strpos(t, o) > 0
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION \(identifier: StrataSQLFunction.characterBeginsWith)(t text, p text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
              SELECT starts_with(t, p)
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION \(identifier: StrataSQLFunction.characterCount)(t text) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
              SELECT length(t)::bigint
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION \(identifier: StrataSQLFunction.like)(t text, p text, flags bigint) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
            DECLARE
              pattern text := '';
              c text;
              escaping boolean := false;
            BEGIN
              IF t IS NULL OR p IS NULL THEN RETURN NULL; END IF;
              FOREACH c IN ARRAY regexp_split_to_array(p, '') LOOP
                IF escaping THEN
                  pattern := pattern || CASE WHEN c IN ('%', '_', '\\') THEN '\\' || c ELSE c END;
                  escaping := false;
                ELSIF c = '\\' THEN escaping := true;
                ELSIF c = '*' THEN pattern := pattern || '%';
                ELSIF c = '?' THEN pattern := pattern || '_';
                ELSIF c IN ('%', '_') THEN pattern := pattern || '\\' || c;
                ELSE pattern := pattern || c;
                END IF;
              END LOOP;
              IF escaping THEN pattern := pattern || '\\\\'; END IF;
              RETURN strata_fold(t, flags) LIKE strata_fold(pattern, flags & 1) COLLATE "C";
            END $$
            """,
            """
            CREATE OR REPLACE FUNCTION \(identifier: StrataSQLFunction.compare)(a text, b text, ordering bigint) RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
            DECLARE x text; y text;
            BEGIN
              IF a IS NULL OR b IS NULL THEN RETURN NULL; END IF;
              IF ordering = 4 THEN x := normalize(a, NFC); y := normalize(b, NFC);
              ELSIF ordering = 3 THEN x := a; y := b;
              ELSE RAISE EXCEPTION 'this string ordering is not available on PostgreSQL yet' USING ERRCODE = \(bind: .text(unsupportedState));
              END IF;
              RETURN CASE WHEN x COLLATE "C" < y COLLATE "C" THEN -1 WHEN x = y THEN 0 ELSE 1 END;
            END $$
            """,
        ] + swiftOrderDefinitions + arithmeticDefinitions + sumDefinitions

    /// `strata_swift(x)`: the key Swift's `String` order compares (`<`, `==`, `SortDescriptor`): the UTF-8 bytes of
    /// the text's NFC composition, as `bytea`, whose byte order is Unicode scalar order, with no collation involved;
    /// other types are their own key, so the same spelling serves a sort on any column.
    static let swiftOrderDefinitions: [SQLFragment] =
        [
            """
            CREATE OR REPLACE FUNCTION \(identifier: "strata_swift")(t text) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
              SELECT convert_to(normalize(t, NFC), 'UTF8')
            $$
            """
        ]
        + ["bigint", "double precision", "numeric", "bytea", "boolean"].map { type -> SQLFragment in
            """
            CREATE OR REPLACE FUNCTION \(identifier: "strata_swift")(x \(sql: type)) RETURNS \(sql: type) LANGUAGE sql IMMUTABLE AS $$ SELECT x $$
            """
        }
}
