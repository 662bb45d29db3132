import CLibUSB
@testable import LibUSB
import Testing

/// The libusb wrapper DeviceControl and HCIUSB share.
@Suite struct LibUSBTests {
    /// libusb starts only where the system shows USB (usbfs).
    static let context: LibUSBContext? = try? LibUSBContext.open()

    @Test func errorsCarryLibUSBsName() {
        #expect(LibUSBError.name(LIBUSB_ERROR_ACCESS.rawValue) == "LIBUSB_ERROR_ACCESS")
        let error = LibUSBError(code: LIBUSB_ERROR_NO_DEVICE.rawValue, message: "gone")
        #expect(error.name == "LIBUSB_ERROR_NO_DEVICE" && error.description == "gone")
    }

    @Test func usbfsNodesAndHex() {
        #expect(LibUSBDevice.node(bus: 3, address: 12) == "/dev/bus/usb/003/012")
        #expect(LibUSBDevice.node(bus: 1, address: 127) == "/dev/bus/usb/001/127")
        #expect(USBHex.id(0x2FE3, 0x000B) == "2fe3:000b" && USBHex.byte(0x0A) == "0a")
    }

    /// Every device listed has the facts both users read from it, without opening it.
    @Test(.enabled(if: context != nil, "libusb starts here (usbfs present)"))
    func listedDevicesDescribeThemselves() throws {
        let context = try #require(Self.context)
        for device in try context.devices() {
            #expect(device.descriptor != nil, "\(device.node)")
            #expect(device.portNumbers != nil, "\(device.node)")
            #expect(device.context === context)
        }
    }

    /// Where libusb cannot start, the error says why in the words both layers show.
    @Test(.enabled(if: context == nil, "libusb starts here"))
    func noUSBIsExplained() {
        #expect(throws: LibUSBError.self) { try LibUSBContext.open() }
        do { _ = try LibUSBContext.open() } catch {
            #expect(error.message.hasPrefix("libusb could not start (LIBUSB_ERROR_"))
            #expect(error.message.hasSuffix("this system shows no USB (no usbfs at /dev/bus/usb, or /sys is not mounted)"))
        }
    }
}
