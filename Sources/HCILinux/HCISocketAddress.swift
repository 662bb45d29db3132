import CBlueZ
#if canImport(Glibc)
import Glibc
#endif

/// `struct sockaddr_hci { sa_family_t hci_family; unsigned short hci_dev; unsigned short hci_channel; }`
/// (`<bluetooth/hci.h>`), with `hci_family` always `AF_BLUETOOTH`.
package struct HCISocketAddress: Equatable, Sendable {
    /// `hci_dev`: the adapter index (`hci0` is 0), or `HCI_DEV_NONE`.
    package var device: UInt16
    /// `hci_channel`: `HCI_CHANNEL_RAW`, `HCI_CHANNEL_USER`, …
    package var channel: UInt16

    /// The C structure.
    var sockaddrHCI: sockaddr_hci {
        sockaddr_hci(hci_family: sa_family_t(AF_BLUETOOTH), hci_dev: device, hci_channel: channel)
    }

    /// The bytes of `struct sockaddr_hci` (six: no padding), in host byte order as the kernel reads them.
    package var bytes: [UInt8] {
        withUnsafeBytes(of: sockaddrHCI) { Array($0) }
    }

    /// Calls `body` with the address as `bind(2)` takes it and its length, `sizeof(struct sockaddr_hci)`.
    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var storage = sockaddrHCI
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_hci>.size)) }
        }
    }
}
