/// A device's negotiated speed, as libusb reports it.
package enum USBSpeed: String, Sendable, Equatable, Codable {
    case unknown, low, full, high, superSpeed = "super", superSpeedPlus = "super-plus"

    package init(libusbSpeed: Int32) {
        switch libusbSpeed {
        case 1: self = .low
        case 2: self = .full
        case 3: self = .high
        case 4: self = .superSpeed
        case 5: self = .superSpeedPlus
        default: self = .unknown
        }
    }

    /// `480 Mb/s`.
    package var rate: String {
        switch self {
        case .unknown: return "? Mb/s"
        case .low: return "1.5 Mb/s"
        case .full: return "12 Mb/s"
        case .high: return "480 Mb/s"
        case .superSpeed: return "5 Gb/s"
        case .superSpeedPlus: return "10 Gb/s"
        }
    }
}
