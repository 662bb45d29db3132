/// What one client of a served air's control socket may hold of the server, so that no client — one that
/// floods requests, one that never reads its answers, or many at once — costs the others their answers or
/// the server its memory. A client past a limit is dropped with one line in the server's log naming it and
/// the limit (see `LineChannel.End`); the others are served as before.
package struct ControlLimits: Sendable, Hashable {
    /// Control clients connected at once (each has a thread of its own); one more is closed at once.
    package var maximumClients: Int
    /// The longest request line, in bytes: a longer one is answered `error:` and the client is closed.
    package var maximumLineLength: Int
    /// Requests a client may send ahead of their answers: one more and the client is dropped as flooding.
    package var maximumPendingLines: Int
    /// Bytes of answers waiting for a client that the kernel would not take: past it the client is
    /// dropped as not reading.
    package var maximumQueuedAnswerBytes: Int
    /// How long answers may wait for a client that takes none of them before it is dropped, on the
    /// server's clock.
    package var writeStallTimeout: Duration
    /// The kernel's send buffer of a control client's socket (`SO_SNDBUF`; Linux doubles it): small, so
    /// that answers a client leaves unread wait in the bounded queue above, where they are counted.
    package var socketSendBuffer: Int

    package init(maximumClients: Int = 16, maximumLineLength: Int = 4096, maximumPendingLines: Int = 64,
                maximumQueuedAnswerBytes: Int = 65_536, writeStallTimeout: Duration = .seconds(2), socketSendBuffer: Int = 16_384) {
        self.maximumClients = maximumClients
        self.maximumLineLength = maximumLineLength
        self.maximumPendingLines = maximumPendingLines
        self.maximumQueuedAnswerBytes = maximumQueuedAnswerBytes
        self.writeStallTimeout = writeStallTimeout
        self.socketSendBuffer = socketSendBuffer
    }
}
