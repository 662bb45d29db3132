import Roles

/// What a link had settled on while it carried a run, as `ThroughputReport` states it.
struct LinkFigures: Sendable {
    var mtu: Int
    var phy: String
    var dataLength: Int
    var intervalMilliseconds: Double

    /// Read off `link`; `receiving` picks the direction the run's data took (our receiver's PHY and data length, or our transmitter's).
    init(_ link: LEConnection, receiving: Bool) async {
        mtu = await link.gatt.mtu
        let phy = await link.phy
        let number = receiving ? phy.receiver : phy.transmitter
        self.phy = switch number {
        case 1: "1M"
        case 2: "2M"
        case 3: "coded"
        default: "0x\(String(number, radix: 16))"
        }
        let length = await link.dataLength
        dataLength = Int(receiving ? length.receive.octets : length.transmit.octets)
        intervalMilliseconds = Double(await link.interval) * 1.25
    }

    func report(mode: String, meterBytes bytes: Int, packets: Int, gaps: Int, seconds: Double, latency: (p50: Double, p95: Double),
                acknowledged: Bool?) -> ThroughputReport {
        ThroughputReport(mode: mode, bytes: bytes, packets: packets, sequenceGaps: gaps, seconds: seconds,
                         bitsPerSecond: seconds > 0 ? Double(bytes) * 8 / seconds : 0, mtu: mtu, phy: phy, dataLength: dataLength,
                         intervalMilliseconds: intervalMilliseconds, latencyMillisecondsP50: latency.p50,
                         latencyMillisecondsP95: latency.p95, acknowledged: acknowledged)
    }
}
