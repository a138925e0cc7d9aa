/// A value as Strata stores it in one column.
///
/// Each case matches one SQLite storage class, so a value read back from the store is exactly
/// the value that was written (except `Double.nan`, which SQLite stores as `NULL`).
///
/// ```swift
/// let title: StoredValue = .text("Dune")
/// let year: StoredValue = .integer(1965)
/// ```
public enum StoredValue: Sendable, Hashable {
    /// SQL `NULL`: no value.
    case null
    /// A signed 64-bit integer (SQLite `INTEGER`).
    case integer(Int64)
    /// A 64-bit floating-point number (SQLite `REAL`).
    case real(Double)
    /// UTF-8 text (SQLite `TEXT`).
    case text(String)
    /// Raw bytes (SQLite `BLOB`).
    case blob([UInt8])
}

extension StoredValue: CustomStringConvertible {
    /// The longest text or blob prefix `description` shows before eliding the rest.
    private static let descriptionLimit = 64

    /// A short, human-readable rendering; long text and blobs are cut to about 64 characters.
    public var description: String {
        switch self {
        case .null:
            return "NULL"
        case .integer(let value):
            return String(value)
        case .real(let value):
            return String(value)
        case .text(let value):
            let shown = value.prefix(Self.descriptionLimit)
            let suffix = shown.endIndex == value.endIndex ? "" : "…"
            return "'\(shown)\(suffix)'"
        case .blob(let bytes):
            let shownBytes = bytes.prefix(Self.descriptionLimit / 2)
            let hex = shownBytes.map { byte in
                let digits = String(byte, radix: 16)
                return byte < 16 ? "0" + digits : digits
            }.joined()
            let suffix = shownBytes.count == bytes.count ? "" : "…"
            return "x'\(hex)\(suffix)' (\(bytes.count) bytes)"
        }
    }
}
