/// A value as Strata stores it in one column.
public enum StoredValue: Sendable, Hashable { case null; case integer(Int64); case real(Double); case text(String); case blob([UInt8]) }
