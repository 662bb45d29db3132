import HCI
#if canImport(Glibc)
import Glibc
#endif

/// Thin wrappers over the Bluetooth socket calls: each returns the descriptor or result, or the errno.
enum HCISocket {
    /// `socket(AF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, BTPROTO_HCI)`.
    static func open() -> Result<Int32, Errno> {
        #if canImport(Glibc)
        let type = Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let fd = socket(HCISocketABI.addressFamily, type, HCISocketABI.protocolHCI)
        return fd >= 0 ? .success(fd) : .failure(Errno(errno))
        #else
        return .failure(Errno(EAFNOSUPPORT))
        #endif
    }

    /// `bind(fd, sockaddr_hci{AF_BLUETOOTH, device, channel})`.
    static func bind(_ fd: Int32, _ address: HCISocketAddress) -> Errno? {
        let bytes = address.bytes
        let result = bytes.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return -1 }
            return Glibc.bind(fd, base.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        return result == 0 ? nil : Errno(errno)
    }

    /// `ioctl(fd, request, device)` for HCIDEVUP/HCIDEVDOWN.
    static func deviceControl(_ fd: Int32, _ request: UInt, index: Int) -> Errno? {
        ioctl(fd, request, Int32(index)) == 0 ? nil : Errno(errno)
    }

    /// `ioctl(HCIGETDEVLIST)`: the indexes of every adapter the kernel has.
    static func deviceList(_ fd: Int32) -> Result<[Int], Errno> {
        // struct hci_dev_list_req { __u16 dev_num; struct hci_dev_req dev_req[]; } (entries of 8 bytes from offset 4)
        let count = HCISocketABI.maximumDevices
        var buffer = [UInt8](repeating: 0, count: 4 + 8 * count)
        buffer[0] = UInt8(count)
        let result = buffer.withUnsafeMutableBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return -1 }
            return ioctl(fd, HCISocketABI.ioctlGetDeviceList, base)
        }
        guard result == 0 else { return .failure(Errno(errno)) }
        let reported = min(Int(buffer[0]) | Int(buffer[1]) << 8, count)
        return .success((0..<reported).map { Int(buffer[4 + 8 * $0]) | Int(buffer[5 + 8 * $0]) << 8 })
    }

    /// `ioctl(HCIGETDEVINFO)` for one adapter.
    static func deviceInfo(_ fd: Int32, index: Int) -> Result<HCIDeviceInfo, Errno> {
        var buffer = [UInt8](repeating: 0, count: HCISocketABI.deviceInfoSize)
        buffer[0] = UInt8(index & 0xFF)
        buffer[1] = UInt8((index >> 8) & 0xFF)
        let result = buffer.withUnsafeMutableBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return -1 }
            return ioctl(fd, HCISocketABI.ioctlGetDeviceInfo, base)
        }
        guard result == 0 else { return .failure(Errno(errno)) }
        guard let info = HCIDeviceInfo(bytes: buffer) else { return .failure(Errno(EINVAL)) }
        return .success(info)
    }

    static func close(_ fd: Int32) { _ = Glibc.close(fd) }
}

/// An errno value.
struct Errno: Error, Equatable {
    let code: Int32
    init(_ code: Int32) { self.code = code }
}
