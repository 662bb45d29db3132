import HCIPackets

extension ConnectionParameters {
    /// Whether the parameters are within the ranges of Core v5.4 Vol 4 Part E §7.8.12/§7.8.18:
    /// intervals 0x0006…0x0C80 with min ≤ max, latency ≤ 0x01F3, timeout 0x000A…0x0C80 and longer than
    /// (1 + latency) × interval max × 2, CE lengths min ≤ max.
    var isValidForHCI: Bool {
        (0x0006...0x0C80).contains(intervalMin) && (0x0006...0x0C80).contains(intervalMax) && intervalMin <= intervalMax
            && latency <= 0x01F3 && (0x000A...0x0C80).contains(supervisionTimeout)
            // timeout × 10 ms > (1 + latency) × intervalMax × 1.25 ms × 2  ⇔  timeout × 4 > (1 + latency) × intervalMax
            && UInt32(supervisionTimeout) * 4 > (1 + UInt32(latency)) * UInt32(intervalMax)
            && minCELength <= maxCELength
    }
}
