import Foundation
import Roles
import HCILinux
import HCIUSB

/// `hil adapters`: every Bluetooth adapter, USB ones (location, VID:PID, serial, bound driver, the
/// monikers that name them) and kernel ones (hciN with state), with firmware advice.
public struct AdapterInventory: Codable, Sendable {
    public struct USBAdapter: Codable, Sendable {
        public var monikers: [String]
        public var location: String
        public var id: String
        public var serial: String?
        public var product: String?
        public var driver: String?
        public var kernelAdapter: String?
        public var endpoints: String
        public var firmware: String?
    }

    public struct KernelAdapter: Codable, Sendable {
        public var moniker: String
        public var name: String
        public var address: String
        public var state: String
        public var bus: String
        public var usbLocation: String?
        public var driver: String?
        public var rfkillBlocked: Bool?
    }

    public var usb: [USBAdapter] = []
    public var kernel: [KernelAdapter] = []
    /// Why a source could not be read (no usbfs, no AF_BLUETOOTH).
    public var notes: [String] = []

    /// Reads both sources; each that fails becomes a note.
    public static func read(sysfs: String = "/sys") -> AdapterInventory {
        var inventory = AdapterInventory()
        var kernelByLocation: [String: String] = [:]
        do {
            for adapter in try HCIDevices.list(sysfs: sysfs) {
                inventory.kernel.append(KernelAdapter(moniker: adapter.moniker, name: adapter.info.name, address: adapter.info.address,
                                                      state: adapter.info.stateText, bus: adapter.info.bus, usbLocation: adapter.usbLocation,
                                                      driver: adapter.driver, rfkillBlocked: adapter.rfkillBlocked))
                if let location = adapter.usbLocation { kernelByLocation[location] = adapter.info.name }
            }
        } catch {
            inventory.notes.append("kernel adapters: \(error.message)")
        }
        do {
            for record in try USBTransport.listAdapters(sysfs: sysfs) {
                let firmwarePresent: Bool? = nil
                inventory.usb.append(USBAdapter(
                    monikers: record.monikers, location: record.location, id: record.id, serial: record.serial, product: record.productName,
                    driver: record.driver, kernelAdapter: kernelByLocation[record.location], endpoints: record.endpoints,
                    firmware: FirmwareAdvisor.advice(vendor: record.vendor, product: record.product, driver: record.driver, firmwarePresent: firmwarePresent)))
            }
        } catch {
            inventory.notes.append("USB adapters: \(error.message)")
        }
        return inventory
    }

    public var isEmpty: Bool { usb.isEmpty && kernel.isEmpty }
}
