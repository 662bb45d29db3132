import HCIPackets
import LibUSB
import HostCore

/// The quirk stage of opening a `usb:` controller, after its firmware stage and before the host initializes it:
/// reads Read Local Version and Read BD_ADDR (Core v5.4 Vol 4 Part E §7.4.1, §7.4.6), judges a CSR-ID
/// controller as btusb's `btusb_setup_csr` does, and when the public address is zero or one many controllers
/// share, gives the host a random static address derived from the dongle (`HCIHost.useStaticRandomAddress`),
/// which `LEDevice` then sets with LE Set Random Address and uses as its own address type.
package struct ControllerQuirkStage: Sendable {
    package let vendor: UInt16
    package let product: UInt16
    package let serial: String?
    /// The USB location, `1-1.4`.
    package let location: String
    /// The USB device release (bcdDevice), when known: btusb's last clone rule reads it.
    package let bcdDevice: UInt16?
    package let commandTimeout: Duration

    package init(vendor: UInt16, product: UInt16, serial: String?, location: String, bcdDevice: UInt16? = nil,
                 commandTimeout: Duration = .seconds(2)) {
        self.vendor = vendor
        self.product = product
        self.serial = serial
        self.location = location
        self.bcdDevice = bcdDevice
        self.commandTimeout = commandTimeout
    }

    /// Why `hil` does not open this device (btusb's `BTUSB_IGNORE`), or nil.
    package var refusal: String? {
        guard let entry = BTUSBQuirkTable.entry(vendor: vendor, product: product), entry.quirks.contains(.ignore) else { return nil }
        return "\(USBHex.id(vendor, product)) (\(entry.device)) is one btusb ignores (BTUSB_IGNORE): it is no HCI controller until another driver loads its firmware"
    }

    /// Runs the stage on `host` (not yet initialized); returns what it found and did.
    package func run(on host: HCIHost) async throws(HCIError) -> ControllerQuirks {
        let entry = BTUSBQuirkTable.entry(vendor: vendor, product: product)
        var clone: String?
        if entry?.quirks.contains(.csr) == true {
            let version = try await host.send(ReadLocalVersionInformation(), timeout: commandTimeout)
            clone = FakeCSRCheck.cloneReason(manufacturer: version.manufacturer.rawValue, hciVersion: version.hciVersion.rawValue,
                                             hciRevision: version.hciSubversion, lmpSubversion: version.lmpSubversion, bcdDevice: bcdDevice)
        }
        let address = try await host.send(ReadBDADDR(), timeout: commandTimeout)
        var quirks = ControllerQuirks(usbID: USBHex.id(vendor, product),
                                      btusb: (entry?.quirks ?? []).map { .init(flag: $0.rawValue, applied: $0.applied, effect: $0.effect) },
                                      clone: clone, publicAddress: address.description)
        guard let problem = SharedPublicAddresses.reason(address) else {
            host.useStaticRandomAddress(nil)
            return quirks
        }
        let seed = StableStaticAddress.seed(vendor: vendor, product: product, serial: serial, location: location)
        let random: BDAddress
        do { random = try StableStaticAddress.derive(from: seed) } catch {
            throw .unsupported("cannot derive a random static address for \(address) from \(seed): \(error)")
        }
        host.useStaticRandomAddress(random)
        quirks.publicAddressProblem = problem
        quirks.staticRandomAddress = random.description
        quirks.derivedFrom = seed
        return quirks
    }
}
