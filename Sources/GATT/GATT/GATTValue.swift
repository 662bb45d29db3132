// Where an attribute's value comes from.

/// Reads a value on demand. Throw an `ATTErrorCode` to answer the request with it.
public typealias GATTReadHandler = @Sendable () throws(ATTErrorCode) -> [UInt8]
/// Takes a written value. Throw an `ATTErrorCode` (e.g. `.valueNotAllowed`, an
/// application error) to answer the write with it.
public typealias GATTWriteHandler = @Sendable (_ value: [UInt8]) throws(ATTErrorCode) -> Void

/// The value of a characteristic or descriptor in a `GATTDatabase`.
public enum GATTValue: Sendable {
    /// Bytes the database stores. Writes (when permitted) replace them, for every
    /// connection; `GATTDatabase.setValue(_:at:)` updates them from the application.
    case bytes([UInt8])
    /// A value the application produces and consumes. A missing handler makes
    /// that direction fail with Read Not Permitted / Write Not Permitted.
    case handlers(read: GATTReadHandler?, write: GATTWriteHandler?)
    /// The Database Hash of the database it is in (Core v5.4 Vol 3 Part G §7.3), for
    /// the Database Hash characteristic (0x2B2A).
    case databaseHash

    /// An empty stored value.
    public static let empty = GATTValue.bytes([])

    /// UTF-8 text, stored.
    public static func string(_ text: String) -> GATTValue { .bytes(Array(text.utf8)) }
}
