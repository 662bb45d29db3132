import CBlueZ
#if canImport(Glibc)
import Glibc
#endif

/// The Linux Bluetooth socket ABI the HCI socket transport uses, taken from BlueZ's
/// `<bluetooth/bluetooth.h>` and `<bluetooth/hci.h>` through CBlueZ (the kernel's own are
/// include/net/bluetooth/bluetooth.h and hci_sock.h); only the headers are used, no libbluetooth.
package enum HCISocketABI {
    /// `AF_BLUETOOTH`.
    package static let addressFamily = Int32(AF_BLUETOOTH)
    /// `BTPROTO_HCI`.
    package static let protocolHCI = Int32(BTPROTO_HCI)
    /// `HCI_CHANNEL_RAW`: the classic raw socket (ioctls, sniffing).
    package static let channelRaw = UInt16(HCI_CHANNEL_RAW)
    /// `HCI_CHANNEL_USER`: exclusive access to one controller, the kernel's host stack stepped aside.
    package static let channelUser = UInt16(HCI_CHANNEL_USER)
    /// `HCI_DEV_NONE`.
    package static let deviceNone = UInt16(HCI_DEV_NONE)
    /// `HCI_MAX_DEV`: the most adapters HCIGETDEVLIST reports.
    package static let maximumDevices = Int(HCI_MAX_DEV)

    /// `HCIDEVUP = _IOW('H', 201, int)`.
    package static let ioctlDeviceUp = UInt(hil_ioctl_hcidevup())
    /// `HCIDEVDOWN = _IOW('H', 202, int)`.
    package static let ioctlDeviceDown = UInt(hil_ioctl_hcidevdown())
    /// `HCIGETDEVLIST = _IOR('H', 210, int)`.
    package static let ioctlGetDeviceList = UInt(hil_ioctl_hcigetdevlist())
    /// `HCIGETDEVINFO = _IOR('H', 211, int)`.
    package static let ioctlGetDeviceInfo = UInt(hil_ioctl_hcigetdevinfo())

    /// `sizeof(struct hci_dev_info)`: 92 bytes (no pointers inside, so the same on every Linux).
    package static let deviceInfoSize = MemoryLayout<hci_dev_info>.size

    /// `ERFKILL` (`<errno.h>`): the adapter is blocked by rfkill.
    package static let errnoRFKill = ERFKILL
    /// `EUSERS` (`<errno.h>`): another socket holds the adapter's user channel.
    package static let errnoUsers = EUSERS
}
