import Foundation
import HCIPackets
import Roles
import HCILinux
import HCIUSB

/// `hil adapters`: every Bluetooth adapter, USB ones (location, VID:PID, serial, bound driver, the
/// monikers that name them) and kernel ones (hciN with state), with firmware advice.
package struct AdapterInventory: Codable, Sendable {
    package struct USBAdapter: Codable, Sendable {
        package var monikers: [String]
        package var location: String
        package var id: String
        package var serial: String?
        package var product: String?
        package var driver: String?
        package var kernelAdapter: String?
        package var endpoints: String
        package var firmware: String?
        /// btusb's quirks for its USB ID and the address a `usb:` open uses instead of a shared or zero public one
        /// (`ControllerQuirkStage.advice`); absent when there is nothing to say.
        package var quirks: [String]?
    }

    package struct KernelAdapter: Codable, Sendable {
        package var moniker: String
        package var name: String
        package var address: String
        package var state: String
        package var bus: String
        package var usbLocation: String?
        package var driver: String?
        package var rfkillBlocked: Bool?
    }

    package var usb: [USBAdapter] = []
    package var kernel: [KernelAdapter] = []
    /// Why a source could not be read (no usbfs, no AF_BLUETOOTH).
    package var notes: [String] = []

    /// Reads both sources; each that fails becomes a note.
    package static func read(sysfs: String = "/sys") -> AdapterInventory {
        var inventory = AdapterInventory()
        var kernelByLocation: [String: String] = [:]
        var addressByLocation: [String: BDAddress] = [:]
        do {
            for adapter in try HCIDevices.list(sysfs: sysfs) {
                inventory.kernel.append(KernelAdapter(moniker: adapter.moniker, name: adapter.info.name, address: adapter.info.address,
                                                      state: adapter.info.stateText, bus: adapter.info.bus, usbLocation: adapter.usbLocation,
                                                      driver: adapter.driver, rfkillBlocked: adapter.rfkillBlocked))
                if let location = adapter.usbLocation {
                    kernelByLocation[location] = adapter.info.name
                    addressByLocation[location] = BDAddress(adapter.info.address)
                }
            }
        } catch {
            inventory.notes.append("kernel adapters: \(error.message)")
        }
        do {
            for record in try USBTransport.listAdapters(sysfs: sysfs) {
                let firmwarePresent = FirmwareAdvisor.need(vendor: record.vendor, product: record.product).map { need in
                    need.present(in: FirmwareFiles.standard().directories) { (try? FileManager.default.contentsOfDirectory(atPath: $0)) ?? [] }
                }
                let quirks = ControllerQuirkStage(vendor: record.vendor, product: record.product, serial: record.serial, location: record.location)
                    .advice(publicAddress: addressByLocation[record.location])
                inventory.usb.append(USBAdapter(
                    monikers: record.monikers, location: record.location, id: record.id, serial: record.serial, product: record.productName,
                    driver: record.driver, kernelAdapter: kernelByLocation[record.location], endpoints: record.endpoints,
                    firmware: FirmwareAdvisor.advice(vendor: record.vendor, product: record.product, driver: record.driver, firmwarePresent: firmwarePresent),
                    quirks: quirks.isEmpty ? nil : quirks))
            }
        } catch {
            inventory.notes.append("USB adapters: \(error.message)")
        }
        return inventory
    }

    package var isEmpty: Bool { usb.isEmpty && kernel.isEmpty }
}
