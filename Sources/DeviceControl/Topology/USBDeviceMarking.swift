/// A kind of device that a layer above picks out of the USB tree, with its reason for each device it
/// picks: `hil usb` marks Bluetooth adapters this way. The topology renders the mark without knowing what
/// it means; deciding which devices carry it is the caller's business.
package struct USBDeviceMarking: Sendable {
    /// What a marked device is, on its line of the tree: `Bluetooth adapter`.
    package var noun: String
    /// The heading of the list of marked devices under the tree: `Bluetooth adapters`.
    package var plural: String
    /// The key of the reason in a marked device's JSON object: `bluetoothAdapter`.
    package var jsonKey: String
    /// Why `device` carries the mark, or nil when it does not.
    package var reason: @Sendable (USBDeviceInfo) -> String?

    package init(noun: String, plural: String, jsonKey: String, reason: @escaping @Sendable (USBDeviceInfo) -> String?) {
        self.noun = noun
        self.plural = plural
        self.jsonKey = jsonKey
        self.reason = reason
    }
}
