extension USBBluetoothClassifier {
    /// What made a device a Bluetooth controller.
    package enum Evidence: Hashable, Sendable, CustomStringConvertible {
        /// The device declares class E0/01/01.
        case deviceClass
        /// Interface `number` declares class E0/01/01.
        case interfaceClass(number: UInt8)
        /// A well-known dongle with a vendor class, by name.
        case knownDongle(String)

        /// True when the device itself says it is Bluetooth (class E0/01/01 on the device or an interface):
        /// the devices `usb:N` counts.
        package var declaresClass: Bool {
            if case .knownDongle = self { return false }
            return true
        }

        /// `class e0/01/01`, `interface 1 class e0/01/01`, or the dongle's name.
        package var description: String {
            switch self {
            case .deviceClass: "class e0/01/01"
            case .interfaceClass(let number): "interface \(number) class e0/01/01"
            case .knownDongle(let name): name
            }
        }
    }
}
