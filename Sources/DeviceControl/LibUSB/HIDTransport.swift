import CLibUSB
import LibUSB

/// HID transfers over libusb for the switch boards (YKUSH, USB HID relays): claim the HID interface
/// (detaching usbhid, which libusb re-attaches on release), then interrupt or control transfers,
/// each with a timeout.
enum HIDTransport {
    /// A board found on the bus.
    struct Board {
        var device: LibUSBDevice
        var id: USBID
        var location: USBLocation
        var serial: String?
        var product: String?
    }

    /// Devices with one of `ids`, with their USB serial and product strings (sysfs, else the device).
    static func boards(_ context: LibUSBContext, ids: Set<USBID>, sysfs: SysfsRoot) throws -> [Board] {
        try LibUSBCalls.devices(context).compactMap { device -> Board? in
            guard let descriptor = device.descriptor, let id = device.id, ids.contains(id),
                  let location = device.location else { return nil }
            var board = Board(device: device, id: id, location: location,
                              serial: sysfs.stringAttribute("serial", of: location),
                              product: sysfs.stringAttribute("product", of: location))
            if board.serial == nil || board.product == nil, let handle = try? LibUSBCalls.open(device, what: "board \(location)") {
                board.serial = board.serial ?? LibUSBCalls.string(handle, index: descriptor.iSerialNumber)
                board.product = board.product ?? LibUSBCalls.string(handle, index: descriptor.iProduct)
                libusb_close(handle)
            }
            return board
        }
    }

    /// Opens `board`, claims `interface` and runs `body`; releases and closes afterwards.
    static func withInterface<T>(_ board: Board, interface: Int32 = 0, what: String, _ body: (OpaquePointer) throws -> T) throws -> T {
        let handle = try LibUSBCalls.open(board.device, what: what)
        defer { libusb_close(handle) }
        _ = libusb_set_auto_detach_kernel_driver(handle, 1)
        let code = libusb_claim_interface(handle, interface)
        guard code == 0 else {
            if code == LIBUSB_ERROR_ACCESS.rawValue {
                throw PowerSwitchError(.permissionDenied, PermissionAdvice.usbDevice(node: board.device.node, id: board.id, what: what))
            }
            throw PowerSwitchError(.deviceFailure, "\(what): cannot claim interface \(interface): \(LibUSBError.name(code))")
        }
        defer { libusb_release_interface(handle, interface) }
        return try body(handle)
    }

    static func interruptOut(_ handle: OpaquePointer, endpoint: UInt8, _ data: [UInt8], what: String, timeoutMilliseconds: UInt32 = 1000) throws {
        var buffer = data
        var transferred: Int32 = 0
        let code = buffer.withUnsafeMutableBufferPointer {
            libusb_interrupt_transfer(handle, endpoint, $0.baseAddress, Int32($0.count), &transferred, timeoutMilliseconds)
        }
        guard code == 0, Int(transferred) == data.count else {
            if code == LIBUSB_ERROR_TIMEOUT.rawValue {
                throw PowerSwitchError(.timeout, "\(what): the board took no report on endpoint 0x\(byteHex(endpoint)) within \(timeoutMilliseconds) ms")
            }
            throw PowerSwitchError(.deviceFailure, "\(what): writing \(data.count) bytes to endpoint 0x\(byteHex(endpoint)) failed: \(LibUSBError.name(code)) (\(transferred) sent)")
        }
    }

    static func interruptIn(_ handle: OpaquePointer, endpoint: UInt8, length: Int, what: String, timeoutMilliseconds: UInt32 = 1000) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: length)
        var transferred: Int32 = 0
        let code = buffer.withUnsafeMutableBufferPointer {
            libusb_interrupt_transfer(handle, endpoint, $0.baseAddress, Int32($0.count), &transferred, timeoutMilliseconds)
        }
        guard code == 0 else {
            if code == LIBUSB_ERROR_TIMEOUT.rawValue {
                throw PowerSwitchError(.timeout, "\(what): no answer on endpoint 0x\(byteHex(endpoint)) within \(timeoutMilliseconds) ms")
            }
            throw PowerSwitchError(.deviceFailure, "\(what): reading endpoint 0x\(byteHex(endpoint)) failed: \(LibUSBError.name(code))")
        }
        return Array(buffer.prefix(Int(transferred)))
    }
}
