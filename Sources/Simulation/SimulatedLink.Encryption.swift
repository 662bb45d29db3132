extension SimulatedLink {
    /// An LE encryption procedure on the link: the encryption start procedure (Core v5.4 Vol 6 Part B
    /// §5.1.3.1), or on a link already encrypted the encryption pause procedure that wraps it (§5.1.3.2),
    /// a key refresh. The central's host starts it with LE Enable Encryption; the peripheral's host gives
    /// the key.
    struct Encryption {
        /// Where the procedure stands.
        enum Phase: Equatable {
            /// LL_ENC_REQ (after LL_PAUSE_ENC_REQ on an encrypted link) waits for the next connection event.
            case requested
            /// The peripheral's host has LE Long Term Key Request and has not answered.
            case awaitingKey
            /// The peripheral's host answered with `key` (nil: a Negative Reply): LL_START_ENC_REQ, or
            /// LL_REJECT_EXT_IND, rides the next event.
            case answered(key: [UInt8]?)
            /// LL_START_ENC_REQ went at event `sentAt`; the LL_START_ENC_RSPs end the procedure one event later.
            case starting(key: [UInt8], sentAt: Int)
        }

        /// Rand and EDIV as the central's host gave them, for the peripheral's LE Long Term Key Request.
        let random: UInt64
        let ediv: UInt16
        /// The Long Term Key the central's host gave.
        let centralKey: [UInt8]
        /// Whether the link was encrypted when the procedure began: it ends with Encryption Key Refresh
        /// Complete instead of Encryption Change.
        let refresh: Bool
        var phase = Phase.requested
        /// The central's LL response timer (40 s, scaled; §5.2), armed when LL_ENC_REQ goes.
        var responseTimer: UInt64?

        /// Whether the procedure has something for the next connection event (not while the peripheral's
        /// host thinks).
        var needsEvent: Bool { phase != .awaitingKey }

        /// Data stops on both sides from LL_ENC_REQ until the procedure ends (§5.1.3.1).
        var pausesData: Bool { phase != .requested }
    }
}
