import HCIPackets
// One handle/type pair of a Find Information Response.

extension ATTPDU {
    /// One entry of a Find Information Response's Information Data
    /// (Core v5.4 Vol 3 Part F §3.4.3.2): an attribute handle and its type.
    ///
    /// A response carries one Format for all entries: 0x01 for 16-bit UUIDs,
    /// 0x02 for 128-bit UUIDs. Encoding takes the format from the first entry
    /// (16-bit when its UUID was made 16-bit) and writes every entry in it, so
    /// build a response from entries of one width.
    public struct Information: Hashable, Sendable {
        public var handle: UInt16
        public var type: BluetoothUUID
    }
}
