extension LineChannel {
    /// Why a line channel ended: its client left or the server closed it, or the client went past one of
    /// its `ControlLimits` — those say so in one line of the server's log (`misbehaviour`).
    enum End: Sendable, Equatable {
        /// End of input, or the client hung up; what it had asked was answered as far as it could be.
        case inputEnded
        /// The server closed it (it is shutting down).
        case stopped
        /// Writing an answer failed: the client is gone.
        case writeFailed(String)
        /// A request line longer than the limit: answered `error:`, then closed.
        case overlongLine(limit: Int)
        /// More requests than the limit waiting for their answers: dropped.
        case flooded(limit: Int)
        /// More answer bytes than the limit waiting for the client to read them: dropped.
        case notReading(queued: Int, limit: Int)
        /// The client took none of its answers for this long: dropped.
        case stalled(Duration)

        /// What the client did wrong, for the server's log; nil when it left or was closed as usual.
        var misbehaviour: String? {
            switch self {
            case .inputEnded, .stopped, .writeFailed: nil
            case .overlongLine(let limit): "sent a line longer than \(limit) bytes"
            case .flooded(let limit): "flooding: sent more than \(limit) requests ahead of their answers"
            case .notReading(let queued, let limit): "not reading: \(queued) bytes of answers waiting for it (the limit is \(limit))"
            case .stalled(let timeout): "not reading: it took none of its answers for \(timeout)"
            }
        }
    }
}
