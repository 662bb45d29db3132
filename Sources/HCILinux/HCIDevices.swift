import Foundation
import HCITransports

/// The adapters the kernel's Bluetooth stack knows (hci0, hci1, …), with their state and, for USB
/// adapters, the USB device behind them.
package enum HCIDevices {
    /// One adapter as `hil adapters` shows it.
    package struct Adapter: Hashable, Sendable {
        package var info: HCIDeviceInfo
        /// The USB location (`1-1.4`) and interface when the adapter sits on USB; from sysfs.
        package var usbLocation: String?
        /// The kernel driver bound to it (`btusb`, `hci_vhci`, `hci_uart`).
        package var driver: String?
        /// What sysfs's rfkill says: true when soft- or hard-blocked.
        package var rfkillBlocked: Bool?

        package var moniker: String { "hci-socket:\(info.index)" }
    }

    /// Every adapter, in index order. `.unsupported` when the kernel has no Bluetooth sockets.
    package static func list(sysfs: String = "/sys") throws(HCITransportError) -> [Adapter] {
        let moniker = "hci-socket"
        let fd: Int32
        switch HCISocket.open() {
        case .success(let opened): fd = opened
        case .failure(let error): throw HCISocketAdvice.error(error.code, step: .socket, index: 0, moniker: moniker)
        }
        defer { HCISocket.close(fd) }
        let indexes: [Int]
        switch HCISocket.deviceList(fd) {
        case .success(let list): indexes = list.sorted()
        case .failure(let error): throw HCISocketAdvice.error(error.code, step: .deviceList, index: 0, moniker: moniker)
        }
        var adapters: [Adapter] = []
        for index in indexes {
            // An adapter that leaves between the list and the query is simply not listed.
            guard case .success(let info) = HCISocket.deviceInfo(fd, index: index) else { continue }
            adapters.append(describe(info, sysfs: sysfs))
        }
        return adapters
    }

    /// Adds the sysfs facts (USB location, driver, rfkill) to what the ioctl said.
    package static func describe(_ info: HCIDeviceInfo, sysfs: String) -> Adapter {
        let directory = "\(sysfs)/class/bluetooth/\(info.name)"
        var adapter = Adapter(info: info)
        let fileManager = FileManager.default
        if let target = try? fileManager.destinationOfSymbolicLink(atPath: directory + "/device") {
            // …/devices/pci0000:00/…/usb1/1-1/1-1:1.0 for a USB adapter.
            let last = target.split(separator: "/").last.map(String.init) ?? target
            if let colon = last.firstIndex(of: ":"), last.contains("-") {
                adapter.usbLocation = String(last[..<colon])
            }
            if let driver = try? fileManager.destinationOfSymbolicLink(atPath: directory + "/device/driver") {
                adapter.driver = driver.split(separator: "/").last.map(String.init)
            }
        }
        if let entries = try? fileManager.contentsOfDirectory(atPath: directory) {
            for entry in entries where entry.hasPrefix("rfkill") {
                let soft = (try? String(contentsOfFile: "\(directory)/\(entry)/soft", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
                let hard = (try? String(contentsOfFile: "\(directory)/\(entry)/hard", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
                if soft != nil || hard != nil { adapter.rfkillBlocked = soft == "1" || hard == "1" }
            }
        }
        return adapter
    }
}
