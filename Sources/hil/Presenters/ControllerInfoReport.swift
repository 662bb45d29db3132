import BenchOperations
import Foundation
import HostCore

/// `hil info`'s answer, as text for a person or one JSON object for a program.
package struct ControllerInfoReport: Codable, Sendable {
    package struct Manufacturer: Codable, Sendable {
        package var id: UInt16
        package var name: String?
    }

    package struct Buffers: Codable, Sendable {
        package var length: Int
        package var count: Int
    }

    package var moniker: String
    package var address: String
    package var hciVersion: String
    package var hciRevision: UInt16
    package var lmpVersion: String
    package var lmpSubversion: UInt16
    package var manufacturer: Manufacturer
    package var leSupported: Bool
    package var leFeatures: [String]
    package var aclBuffers: Buffers
    package var leACLBuffers: Buffers
    package var isoBuffers: Buffers?
    package var extendedAdvertising: Bool
    package var extendedScanning: Bool
    package var supportedCommandCount: Int
    /// ROM or patched firmware and which file (a Realtek controller); absent for one that needs none.
    package var firmware: FirmwareSummary?
    /// btusb's quirks for a `usb:` dongle's USB ID, whether it is a CSR clone, and the random static address used
    /// instead of a shared or zero public one; absent when there is nothing to say.
    package var quirks: ControllerQuirks?
    /// The address the host uses on the air: `address`, or the random static address that replaces it.
    package var addressUsed: String

    package init(moniker: String, info: ControllerInfo, leSupported: Bool, firmware stage: ControllerFirmwareState? = nil,
                 quirks: ControllerQuirks? = nil) {
        self.moniker = moniker
        address = info.address.description
        hciVersion = info.hciVersion.name
        hciRevision = info.hciSubversion
        lmpVersion = info.lmpVersion.name
        lmpSubversion = info.lmpSubversion
        manufacturer = Manufacturer(id: info.manufacturer.rawValue, name: info.manufacturer.name)
        self.leSupported = leSupported
        leFeatures = info.leFeatures.names
        aclBuffers = Buffers(length: Int(info.aclBufferLength), count: Int(info.aclBufferCount))
        leACLBuffers = Buffers(length: Int(info.leACLBufferLength), count: Int(info.leACLBufferCount))
        if let length = info.isoBufferLength, let count = info.isoBufferCount {
            isoBuffers = Buffers(length: Int(length), count: Int(count))
        }
        extendedAdvertising = info.supportsExtendedAdvertising
        extendedScanning = info.supportsExtendedScanning
        supportedCommandCount = info.supportedCommands.reduce(0) { $0 + $1.nonzeroBitCount }
        firmware = FirmwareSummary(stage: stage, manufacturer: info.manufacturer.rawValue, lmpSubversion: info.lmpSubversion,
                                   hciRevision: info.hciSubversion, moniker: moniker)
        self.quirks = quirks.flatMap { $0.isNoteworthy ? $0 : nil }
        addressUsed = quirks?.staticRandomAddress ?? info.address.description
    }


    /// Aligned lines for a terminal.
    package func text() -> String {
        let manufacturerText = "0x" + String(manufacturer.id, radix: 16, uppercase: true).leftPadded(to: 4)
            + " " + (manufacturer.name ?? "(unknown company)")
        var rows: [(String, String)] = [
            ("Controller", moniker),
            ("BD_ADDR", address),
            ("HCI version", "\(hciVersion) (revision 0x\(String(hciRevision, radix: 16, uppercase: true).leftPadded(to: 4)))"),
            ("LMP version", "\(lmpVersion) (subversion 0x\(String(lmpSubversion, radix: 16, uppercase: true).leftPadded(to: 4)))"),
            ("Manufacturer", manufacturerText),
        ]
        if addressUsed != address { rows.insert(("Address used", "\(addressUsed) (random static, in place of the public address)"), at: 2) }
        if let firmware { rows.append(("Firmware", firmware.summary)) }
        for line in quirks?.lines ?? [] { rows.append(("Quirk", line)) }
        rows += [
            ("LE supported", leSupported ? "yes" : "no"),
            ("ACL buffers", "\(aclBuffers.count) × \(aclBuffers.length) bytes"),
            ("LE ACL buffers", leACLBuffers.length == 0 ? "shared with ACL" : "\(leACLBuffers.count) × \(leACLBuffers.length) bytes"),
        ]
        if let isoBuffers { rows.append(("ISO buffers", "\(isoBuffers.count) × \(isoBuffers.length) bytes")) }
        rows.append(("Extended advertising", extendedAdvertising ? "supported" : "not supported"))
        rows.append(("Extended scanning", extendedScanning ? "supported" : "not supported"))
        rows.append(("Supported commands", "\(supportedCommandCount)"))
        rows.append(("LE features", leFeatures.isEmpty ? "(none)" : leFeatures.joined(separator: ", ")))
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }.joined(separator: "\n")
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
