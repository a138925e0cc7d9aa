/// The SQL functions a PostgreSQL store creates in its schema, giving predicates Swift's semantics where
/// PostgreSQL's own operators differ (see docs/ARCHITECTURE.md, "StrataPostgres").
///
/// Text functions are exact for ASCII text without carriage returns, where Foundation's and Swift's string
/// comparisons reduce to byte comparisons (and `lower` under the `C` collation is Foundation's case folding). Other
/// text makes them fail the statement with SQLSTATE `SA001`, which the store reports as
/// `StrataError.unsupportedPredicate`: a refusal, never a different answer than SQLite's. Like SQLite's, every
/// function gives NULL for a NULL argument (`STRICT` where its body would otherwise answer, as `n = '' OR …` does).
enum PostgresFunctions {
    /// The SQLSTATE a Strata function raises for input whose Swift semantics it does not reproduce.
    static let unsupportedState = "SA001"

    /// `CREATE OR REPLACE FUNCTION` statements, run by the bootstrap in the store's schema.
    static let definitions: [String] = [
        """
        CREATE OR REPLACE FUNCTION strata_simple(t text, fn text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
        BEGIN
          IF t IS NOT NULL AND (octet_length(t) <> length(t) OR strpos(t, chr(13)) > 0) THEN
            RAISE EXCEPTION '% compares ASCII text only on PostgreSQL (this text has other characters)', fn
              USING ERRCODE = '\(unsupportedState)';
          END IF;
          RETURN t;
        END $$
        """,
        """
        CREATE OR REPLACE FUNCTION strata_fold(t text, flags bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
          SELECT CASE WHEN flags & 1 = 1 THEN lower(strata_simple(t, 'a [c] comparison') COLLATE "C")
                      WHEN flags & 2 = 2 THEN strata_simple(t, 'a [d] comparison') ELSE t END
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION strata_contains(h text, n text, flags bigint) RETURNS boolean LANGUAGE sql IMMUTABLE STRICT AS $$
          SELECT n = '' OR strpos(strata_fold(strata_simple(h, 'contains'), flags), strata_fold(strata_simple(n, 'contains'), flags)) > 0
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION strata_beginswith(t text, p text, flags bigint) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
          SELECT starts_with(strata_fold(strata_simple(t, 'BEGINSWITH'), flags), strata_fold(strata_simple(p, 'BEGINSWITH'), flags))
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION strata_endswith(t text, s text, flags bigint) RETURNS boolean LANGUAGE sql IMMUTABLE STRICT AS $$
          SELECT s = '' OR right(strata_fold(strata_simple(t, 'ENDSWITH'), flags), length(s)) = strata_fold(strata_simple(s, 'ENDSWITH'), flags)
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION strata_localized_standard_contains(h text, n text) RETURNS boolean LANGUAGE sql IMMUTABLE STRICT AS $$
          SELECT n <> '' AND strpos(lower(strata_simple(h, 'localizedStandardContains') COLLATE "C"),
                                    lower(strata_simple(n, 'localizedStandardContains') COLLATE "C")) > 0
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION strata_character_contains(t text, o text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
          SELECT strpos(strata_simple(t, 'contains'), strata_simple(o, 'contains')) > 0
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION strata_character_beginswith(t text, p text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
          SELECT starts_with(strata_simple(t, 'starts(with:)'), strata_simple(p, 'starts(with:)'))
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION strata_character_count(t text) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
          SELECT length(strata_simple(t, 'count'))::bigint
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION strata_like(t text, p text, flags bigint) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
        DECLARE
          pattern text := '';
          c text;
          escaping boolean := false;
        BEGIN
          IF t IS NULL OR p IS NULL THEN RETURN NULL; END IF;
          FOREACH c IN ARRAY regexp_split_to_array(strata_simple(p, 'LIKE'), '') LOOP
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
          RETURN strata_fold(strata_simple(t, 'LIKE'), flags) LIKE strata_fold(pattern, flags & 1) COLLATE "C";
        END $$
        """,
        """
        CREATE OR REPLACE FUNCTION strata_compare(a text, b text, ordering bigint) RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
        DECLARE x text; y text;
        BEGIN
          IF a IS NULL OR b IS NULL THEN RETURN NULL; END IF;
          IF ordering = 4 THEN x := normalize(a, NFC); y := normalize(b, NFC);
          ELSIF ordering = 3 THEN x := strata_simple(a, 'compare'); y := strata_simple(b, 'compare');
          ELSE RAISE EXCEPTION 'this string ordering is not available on PostgreSQL yet' USING ERRCODE = '\(unsupportedState)';
          END IF;
          RETURN CASE WHEN x COLLATE "C" < y COLLATE "C" THEN -1 WHEN x = y THEN 0 ELSE 1 END;
        END $$
        """,
    ] + swiftOrderDefinitions + arithmeticDefinitions + sumDefinitions

    /// `strata_swift(x)`: the key Swift's `String` order compares (`<`, `==`, `SortDescriptor`): the UTF-8 bytes of
    /// the text's NFC composition, as `bytea`, whose byte order is Unicode scalar order, with no collation involved;
    /// other types are their own key, so the same spelling serves a sort on any column.
    static let swiftOrderDefinitions: [String] = [
        """
        CREATE OR REPLACE FUNCTION strata_swift(t text) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
          SELECT convert_to(normalize(t, NFC), 'UTF8')
        $$
        """,
    ] + ["bigint", "double precision", "numeric", "bytea", "boolean"].map { type in
        """
        CREATE OR REPLACE FUNCTION strata_swift(x \(type)) RETURNS \(type) LANGUAGE sql IMMUTABLE AS $$ SELECT x $$
        """
    }
}
