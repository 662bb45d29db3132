import HCIPackets

/// One active scan by one scanner, as the accessory saw it: the scan requests (SCAN_REQ, Core v5.4 Vol 6
/// Part B §2.3.2.1) that scanner sent, from the first to the last. A passive scan sends none, so it leaves
/// no span; requests further apart than `gap` are two scans. Times are milliseconds from the start.
package struct ScanSpan: Sendable, Hashable, Encodable {
    /// Scanner_Address as the controller reported it (a phone's is usually a resolvable private address, new
    /// every few minutes) and its type.
    package var scanner: String
    package var addressType: String
    package var firstMilliseconds: Double
    package var lastMilliseconds: Double
    package var requests: Int

    /// How long the scan lasted, first request to last.
    package var durationMilliseconds: Double { lastMilliseconds - firstMilliseconds }

    /// `C0:…:01 (random) scanned actively for 2300 ms from 512 ms (23 scan requests)`.
    package var summary: String {
        "\(scanner) (\(addressType)) scanned actively for \(RoundedText.ms(durationMilliseconds)) from \(RoundedText.ms(firstMilliseconds)) "
            + "(\(requests) scan request\(requests == 1 ? "" : "s"))"
    }

    /// The longest silence within one scan: 6 s, past the 5.12 s scan interval of Android's low-power scan
    /// mode (a 0.512 s window each 5.12 s), the sparsest duty cycle a phone app asks for.
    package static let gap: Double = 6000

    package init(scanner: BDAddress, addressType: AddressType, at milliseconds: Double) {
        self.scanner = scanner.description
        self.addressType = addressType.description
        self.firstMilliseconds = milliseconds
        self.lastMilliseconds = milliseconds
        self.requests = 1
    }

    /// `central.json` carries the duration too, for a reader that does not subtract.
    enum CodingKeys: String, CodingKey {
        case scanner, addressType, firstMilliseconds, lastMilliseconds, requests, durationMilliseconds
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scanner, forKey: .scanner)
        try container.encode(addressType, forKey: .addressType)
        try container.encode(firstMilliseconds, forKey: .firstMilliseconds)
        try container.encode(lastMilliseconds, forKey: .lastMilliseconds)
        try container.encode(requests, forKey: .requests)
        try container.encode(durationMilliseconds, forKey: .durationMilliseconds)
    }
}

extension [ScanSpan] {
    /// Adds a scan request from `scanner` at `milliseconds`: to that scanner's last span when within `gap`
    /// of it, else as a new span. Returns true when it began a new span.
    mutating func add(scanner: BDAddress, type: AddressType, at milliseconds: Double) -> Bool {
        let text = scanner.description
        if let index = lastIndex(where: { $0.scanner == text }), milliseconds - self[index].lastMilliseconds <= ScanSpan.gap {
            self[index].lastMilliseconds = Swift.max(self[index].lastMilliseconds, milliseconds)
            self[index].requests += 1
            return false
        }
        append(ScanSpan(scanner: scanner, addressType: type, at: milliseconds))
        return true
    }
}
