// The record of what peers sent against the protocol.

extension HCIHost {
    /// How many violations `protocolViolations` keeps (the first ones: they are the cause, later ones echoes).
    public static let maximumViolations = 64

    /// Records a peer's protocol violation (also as an anomaly). Never throws, never traps: the caller has
    /// already failed what waited for the PDU, or dropped it.
    public func recordViolation(_ violation: ProtocolViolation) {
        noteAnomaly(violation.description)
        guard protocolViolations.count < Self.maximumViolations else { return }
        protocolViolations.append(violation)
    }
}
