import Strata

extension PostgresFunctions {
    /// Checked integer arithmetic (`strata_int_*`: fails the statement outside the Swift type's range, as Swift
    /// traps; division and remainder by zero give NULL), IEEE double arithmetic (`strata_real_*`, `strata_float_*`
    /// rounded to `Float`: PostgreSQL raises on overflow, underflow to zero and division by zero where IEEE gives an
    /// infinity, a signed zero or NaN, so those cases compute the IEEE result), and `strata_power`.
    static var arithmeticDefinitions: [SQLFragment] {
        let integer: [(QueryExpression.ArithmeticOperator, String)] = [
            (.add, "a::numeric + b"), (.subtract, "a::numeric - b"), (.multiply, "a::numeric * b"),
            (.divide, "trunc(a::numeric / NULLIF(b, 0))"), (.remainder, "mod(a::numeric, NULLIF(b, 0))"),
        ]
        let checked = integer.map { op, expression -> SQLFragment in
            let name = StrataSQLFunction.checkedArithmetic(op)
            let definition: SQLFragment = """
                CREATE OR REPLACE FUNCTION \(identifier: name)(a bigint, b bigint, lo bigint, hi bigint) RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
                DECLARE r numeric := \(sql: expression);
                BEGIN
                  IF r IS NOT NULL AND (r < lo OR r > hi) THEN
                    RAISE EXCEPTION '\(sql: name): % and % overflow %...%', a, b, lo, hi USING ERRCODE = '22003';
                  END IF;
                  RETURN r::bigint;
                END $$
                """
            return definition
        }
        let operators: [(QueryExpression.ArithmeticOperator, String)] = [
            (.add, "+"), (.divide, "/"), (.multiply, "*"), (.subtract, "-"),
        ]
        let floating = operators.flatMap { op, symbol -> [SQLFragment] in
            [
                """
                CREATE OR REPLACE FUNCTION \(identifier: StrataSQLFunction.floatingArithmetic(op, single: false))(a double precision, b double precision) RETURNS double precision
                LANGUAGE plpgsql IMMUTABLE AS $$
                BEGIN
                  RETURN strata_ieee(\(bind: .text(symbol)), a, b);
                END $$
                """,
                """
                CREATE OR REPLACE FUNCTION \(identifier: StrataSQLFunction.floatingArithmetic(op, single: true))(a double precision, b double precision) RETURNS double precision
                LANGUAGE plpgsql IMMUTABLE AS $$
                BEGIN
                  RETURN strata_single(strata_ieee(\(bind: .text(symbol)), a, b));
                END $$
                """,
            ]
        }
        return [signDefinition, ieeeDefinition, singleDefinition] + checked + floating + [powerDefinition]
    }

    /// `strata_sign(x)`: -1 or 1 by the sign bit, so `-0.0` counts as negative.
    private static let signDefinition: SQLFragment = """
        CREATE OR REPLACE FUNCTION \(identifier: "strata_sign")(x double precision) RETURNS double precision LANGUAGE sql IMMUTABLE AS $$
          SELECT CASE WHEN x < 0 OR (x = 0 AND x::text LIKE '-%') THEN -1.0::float8 ELSE 1.0::float8 END
        $$
        """

    /// `strata_ieee(op, a, b)`: `a op b` as IEEE 754 computes it.
    private static let ieeeDefinition: SQLFragment = """
        CREATE OR REPLACE FUNCTION \(identifier: "strata_ieee")(op text, a double precision, b double precision) RETURNS double precision
        LANGUAGE plpgsql IMMUTABLE AS $$
        BEGIN
          IF a IS NULL OR b IS NULL THEN RETURN NULL; END IF;
          IF op = '/' AND b = 0 THEN
            IF a = 0 OR a = 'NaN' THEN RETURN 'NaN'; END IF;
            RETURN strata_sign(a) * strata_sign(b) * 'Infinity'::float8;
          END IF;
          BEGIN
            RETURN CASE op WHEN '+' THEN a + b WHEN '-' THEN a - b WHEN '*' THEN a * b ELSE a / b END;
          EXCEPTION WHEN numeric_value_out_of_range THEN
            IF SQLERRM LIKE '%underflow%' THEN
              RETURN CASE WHEN op IN ('*', '/') THEN strata_sign(a) * strata_sign(b) * 0.0::float8 ELSE 0.0::float8 END;
            END IF;
            RETURN CASE op WHEN '+' THEN strata_sign(a) WHEN '-' THEN strata_sign(a) ELSE strata_sign(a) * strata_sign(b) END
              * 'Infinity'::float8;
          END;
        END $$
        """

    /// `strata_single(x)`: `x` rounded to `Float` and back, infinities and signed zeros where it leaves `Float`'s range.
    private static let singleDefinition: SQLFragment = """
        CREATE OR REPLACE FUNCTION \(identifier: "strata_single")(x double precision) RETURNS double precision LANGUAGE plpgsql IMMUTABLE AS $$
        BEGIN
          RETURN x::real::double precision;
        EXCEPTION WHEN numeric_value_out_of_range THEN
          IF abs(x) < 1 THEN RETURN strata_sign(x) * 0.0::float8; END IF;
          RETURN strata_sign(x) * 'Infinity'::float8;
        END $$
        """

    /// `strata_power(base, exponent)`: `pow` as a double; NULL where the result is not a number. Cases PostgreSQL
    /// rejects and IEEE `pow` answers (zero to a negative power, overflow) are refused rather than guessed.
    private static let powerDefinition: SQLFragment = """
        CREATE OR REPLACE FUNCTION \(identifier: StrataSQLFunction.power)(a double precision, b double precision) RETURNS double precision
        LANGUAGE plpgsql IMMUTABLE AS $$
        DECLARE r double precision;
        BEGIN
          IF a IS NULL OR b IS NULL THEN RETURN NULL; END IF;
          IF a < 0 AND b <> trunc(b) AND b NOT IN ('Infinity', '-Infinity') THEN RETURN NULL; END IF;
          BEGIN
            r := power(a, b);
          EXCEPTION WHEN OTHERS THEN
            RAISE EXCEPTION 'strata_power(%, %) is not computed on PostgreSQL yet', a, b USING ERRCODE = \(bind: .text(unsupportedState));
          END;
          RETURN CASE WHEN r = 'NaN' THEN NULL ELSE r END;
        END $$
        """
}
