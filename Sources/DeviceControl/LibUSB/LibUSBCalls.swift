import CLibUSB
import Foundation
import LibUSB

/// Thin synchronous libusb calls with DeviceControl's errors, called only inside `USBContext.run` (on the
/// libusb queue).
enum LibUSBCalls {
    /// Default timeout of one control transfer: every transfer has a deadline.
    static let controlTimeoutMilliseconds: UInt32 = 2000

    /// libusb's current device list.
    static func devices(_ context: LibUSBContext) throws -> [LibUSBDevice] {
        do { return try context.devices() } catch { throw PowerSwitchError(.deviceFailure, error.message) }
    }

    /// Opens a device; a refusal names the node and the udev rule that fixes it.
    static func open(_ device: LibUSBDevice, what: String) throws -> OpaquePointer {
        var handle: OpaquePointer?
        let code = libusb_open(device.raw, &handle)
        let id = device.id ?? USBID(vendor: 0, product: 0)
        guard code == 0, let handle else {
            if code == LIBUSB_ERROR_ACCESS.rawValue {
                throw PowerSwitchError(.permissionDenied, PermissionAdvice.usbDevice(node: device.node, id: id, what: what))
            }
            if code == LIBUSB_ERROR_NO_DEVICE.rawValue {
                throw PowerSwitchError(.notFound, "\(what) (\(id)) left the bus while being opened")
            }
            throw PowerSwitchError(.deviceFailure, "cannot open \(device.node) (\(what), \(id)): \(LibUSBError.name(code))")
        }
        return handle
    }

    /// One control transfer. For IN transfers returns the bytes received; for OUT, `data` is sent.
    static func control(_ handle: OpaquePointer, _ setup: SetupPacket, data: [UInt8] = [], what: String,
                        timeoutMilliseconds: UInt32 = controlTimeoutMilliseconds) throws -> [UInt8] {
        var buffer = setup.isIn ? [UInt8](repeating: 0, count: Int(setup.length)) : data
        if buffer.isEmpty { buffer = [0] }
        let length = setup.isIn ? setup.length : UInt16(clamping: data.count)
        let code = buffer.withUnsafeMutableBufferPointer {
            libusb_control_transfer(handle, setup.requestType, setup.request, setup.value, setup.index,
                                    $0.baseAddress, length, timeoutMilliseconds)
        }
        guard code >= 0 else {
            if code == LIBUSB_ERROR_TIMEOUT.rawValue {
                throw PowerSwitchError(.timeout, "\(what) (setup \(setup)) got no answer within \(timeoutMilliseconds) ms")
            }
            if code == LIBUSB_ERROR_ACCESS.rawValue {
                throw PowerSwitchError(.permissionDenied, "\(what) (setup \(setup)) was refused: LIBUSB_ERROR_ACCESS")
            }
            throw PowerSwitchError(.deviceFailure, "\(what) (setup \(setup)) failed: \(LibUSBError.name(code))")
        }
        return setup.isIn ? Array(buffer.prefix(Int(code))) : []
    }

    /// An ASCII string descriptor, or nil.
    static func string(_ handle: OpaquePointer, index: UInt8) -> String? {
        guard index != 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBufferPointer {
            libusb_get_string_descriptor_ascii(handle, index, $0.baseAddress, 256)
        }
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(Int(count)), as: UTF8.self).trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\0")))
    }
}
