import HCIPackets

extension ControllerQuirkStage {
    /// What the stage does for this dongle, said before it is opened (`hil adapters`, `hil doctor`): btusb's
    /// flags for its USB ID with what each does here, and the random static address a `usb:` open uses should
    /// the controller report a shared or zero public address — said as a fact when `publicAddress` (the kernel's
    /// adapter on the dongle) already shows one. Empty when there is nothing to say.
    package func advice(publicAddress: BDAddress? = nil) -> [String] {
        let entry = BTUSBQuirkTable.entry(vendor: vendor, product: product)
        var lines = (entry?.quirks ?? []).map { "btusb \($0.rawValue) (\(entry?.device ?? "")): \($0.effect)" }
        let seed = StableStaticAddress.seed(vendor: vendor, product: product, serial: serial, location: location)
        guard let random = try? StableStaticAddress.derive(from: seed) else { return lines }
        if let publicAddress, let problem = SharedPublicAddresses.reason(publicAddress) {
            lines.append("public address \(publicAddress) is \(problem): usb: uses random static address \(random) instead (from \(seed))")
        } else if entry?.quirks.contains(.csr) == true {
            lines.append("a clone reporting the shared address 00:1A:7D:DA:71:13 (or none) gets random static address \(random) on usb: (from \(seed))")
        }
        return lines
    }
}
