import Strata

extension PostgresFunctions {
    /// The exact value of a `double precision` as `numeric` (`strata_real_exact`; PostgreSQL's own cast keeps 15
    /// digits), so `sum(strata_real_exact(x))::float8` is the exact sum rounded once, as SQLite's `strata_real_sum`
    /// and the in-memory evaluator compute a format `@sum` of a `Double` attribute. NaN and the infinities stay
    /// themselves (`numeric` holds them); a sum past double's range fails the cast, a refusal where SQLite gives
    /// an infinity. `strata_exact_power` raises an integer to a power by squaring, exactly.
    static let sumDefinitions: [SQLFragment] = [
        """
        CREATE OR REPLACE FUNCTION \(identifier: "strata_exact_power")(b numeric, k integer) RETURNS numeric LANGUAGE plpgsql IMMUTABLE STRICT AS $$
        DECLARE r numeric := 1; p numeric := b;
        BEGIN
          WHILE k > 0 LOOP
            IF (k & 1) = 1 THEN r := r * p; END IF;
            p := p * p;
            k := k >> 1;
          END LOOP;
          RETURN r;
        END $$
        """,
        """
        CREATE OR REPLACE FUNCTION \(identifier: "strata_real_exact")(x double precision) RETURNS numeric LANGUAGE plpgsql IMMUTABLE STRICT AS $$
        DECLARE b bytea := float8send(x); e integer; m numeric;
        BEGIN
          IF x = 'NaN'::float8 OR x = 'Infinity'::float8 OR x = '-Infinity'::float8 THEN RETURN x::numeric; END IF;
          e := ((get_byte(b, 0) & 127) << 4) | (get_byte(b, 1) >> 4);
          m := (((get_byte(b, 1) & 15)::bigint << 48) | (get_byte(b, 2)::bigint << 40) | (get_byte(b, 3)::bigint << 32)
                | (get_byte(b, 4)::bigint << 24) | (get_byte(b, 5)::bigint << 16) | (get_byte(b, 6)::bigint << 8)
                | get_byte(b, 7)::bigint)::numeric;
          IF e = 0 THEN e := 1; ELSE m := m + 4503599627370496; END IF;
          IF get_byte(b, 0) >= 128 THEN m := -m; END IF;
          -- x = m × 2^(e − 1075); below 1 ulp of 1, m / 2^k = m × 5^k / 10^k, exact with k decimal places.
          IF e >= 1075 THEN RETURN m * strata_exact_power(2, e - 1075); END IF;
          RETURN m * strata_exact_power(5, 1075 - e) * ('1e' || (e - 1075)::text)::numeric;
        END $$
        """,
    ]
}
