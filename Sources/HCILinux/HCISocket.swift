import CBlueZ
import Roles
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
        address.withSockaddr { Glibc.bind(fd, $0, $1) } == 0 ? nil : Errno(errno)
    }

    /// `ioctl(fd, request, device)` for HCIDEVUP/HCIDEVDOWN.
    static func deviceControl(_ fd: Int32, _ request: UInt, index: Int) -> Errno? {
        ioctl(fd, request, Int32(index)) == 0 ? nil : Errno(errno)
    }

    /// `ioctl(HCIGETDEVLIST)`: the indexes of every adapter the kernel has.
    static func deviceList(_ fd: Int32) -> Result<[Int], Errno> {
        var list = hil_hci_dev_list_req()
        list.dev_num = UInt16(HCISocketABI.maximumDevices)
        guard ioctl(fd, HCISocketABI.ioctlGetDeviceList, &list) == 0 else { return .failure(Errno(errno)) }
        return .success(indexes(in: list))
    }

    /// The `dev_id` of the first `dev_num` entries (at most `HCI_MAX_DEV`) of what HCIGETDEVLIST filled.
    static func indexes(in list: hil_hci_dev_list_req) -> [Int] {
        let capacity = MemoryLayout.size(ofValue: list.dev_req) / MemoryLayout<hci_dev_req>.stride
        return withUnsafePointer(to: list.dev_req) { tuple in
            tuple.withMemoryRebound(to: hci_dev_req.self, capacity: capacity) { first in
                UnsafeBufferPointer(start: first, count: capacity).prefix(Int(list.dev_num)).map { Int($0.dev_id) }
            }
        }
    }

    /// `ioctl(HCIGETDEVINFO)` for one adapter.
    static func deviceInfo(_ fd: Int32, index: Int) -> Result<HCIDeviceInfo, Errno> {
        var info = hci_dev_info()
        info.dev_id = UInt16(truncatingIfNeeded: index)
        guard ioctl(fd, HCISocketABI.ioctlGetDeviceInfo, &info) == 0 else { return .failure(Errno(errno)) }
        return .success(HCIDeviceInfo(info))
    }

    static func close(_ fd: Int32) { _ = Glibc.close(fd) }
}

/// An errno value.
struct Errno: Error, Equatable {
    let code: Int32
    init(_ code: Int32) { self.code = code }
}
