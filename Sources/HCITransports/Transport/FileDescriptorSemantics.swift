/// How a file descriptor behaves beyond a byte stream, for `FileDescriptorTransport`.
public struct FileDescriptorSemantics: Sendable {
    /// Each write carries one whole packet (a packet socket such as Linux's HCI user channel): a short
    /// write is an error, and ENOBUFS is waited out like EAGAIN.
    public var wholePacketWrites: Bool
    /// The error for an errno from a read or a write (`operation` says which, e.g. "read", "write of …");
    /// nil keeps the default mapping.
    public var describeFailure: @Sendable (_ code: Int32, _ operation: String) -> HCITransportError?
    /// The message when the other end closes (a read returns 0).
    public var closedByPeerMessage: String?

    public init(wholePacketWrites: Bool = false,
                describeFailure: @escaping @Sendable (_ code: Int32, _ operation: String) -> HCITransportError? = { _, _ in nil },
                closedByPeerMessage: String? = nil) {
        self.wholePacketWrites = wholePacketWrites
        self.describeFailure = describeFailure
        self.closedByPeerMessage = closedByPeerMessage
    }

    /// A byte stream: a Unix or TCP socket, a UART.
    public static let stream = FileDescriptorSemantics()
}
