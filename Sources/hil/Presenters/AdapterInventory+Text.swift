import BenchOperations

extension AdapterInventory {
    /// `hil adapters`: the USB adapters with their monikers, endpoints and firmware, then the kernel's.
    func text() -> String {
        var lines: [String] = []
        lines.append("USB adapters:" + (usb.isEmpty ? " none" : ""))
        for adapter in usb {
            let serial = adapter.serial.map { "/\($0)" } ?? ""
            let driver = adapter.driver.map { "driver \($0)" } ?? "no driver"
            let kernel = adapter.kernelAdapter.map { " as \($0)" } ?? ""
            lines.append("  \(adapter.location)  \(adapter.id)\(serial)  \(adapter.product ?? "")  \(driver)\(kernel)")
            lines.append("      monikers: \(adapter.monikers.joined(separator: "  "))")
            lines.append("      \(adapter.endpoints)")
            if let firmware = adapter.firmware { lines.append("      firmware: \(firmware)") }
            for quirk in adapter.quirks ?? [] { lines.append("      quirk: \(quirk)") }
        }
        lines.append("Kernel adapters:" + (kernel.isEmpty ? " none" : ""))
        for adapter in kernel {
            var detail = "\(adapter.bus)"
            if let location = adapter.usbLocation { detail += " \(location)" }
            if let driver = adapter.driver { detail += ", driver \(driver)" }
            if adapter.rfkillBlocked == true { detail += ", rfkill-blocked" }
            lines.append("  \(adapter.name)  \(adapter.address)  \(adapter.state)  \(detail)  (\(adapter.moniker))")
        }
        for note in notes { lines.append("note: \(note)") }
        return lines.joined(separator: "\n")
    }
}
