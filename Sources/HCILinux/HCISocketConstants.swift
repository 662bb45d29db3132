/// The Linux Bluetooth socket ABI the HCI socket transport uses (include/net/bluetooth/bluetooth.h,
/// hci.h, hci_sock.h), spelled out so this module needs no libbluetooth.
public enum HCISocketABI {
    /// `AF_BLUETOOTH`.
    public static let addressFamily: Int32 = 31
    /// `BTPROTO_HCI`.
    public static let protocolHCI: Int32 = 1
    /// `HCI_CHANNEL_RAW`: the classic raw socket (ioctls, sniffing).
    public static let channelRaw: UInt16 = 0
    /// `HCI_CHANNEL_USER`: exclusive access to one controller, the kernel's host stack stepped aside.
    public static let channelUser: UInt16 = 1
    /// `HCI_DEV_NONE`.
    public static let deviceNone: UInt16 = 0xFFFF
    /// `HCI_MAX_DEV`: the most adapters HCIGETDEVLIST reports.
    public static let maximumDevices = 16

    /// `HCIDEVUP = _IOW('H', 201, int)`.
    public static let ioctlDeviceUp: UInt = 0x4004_48C9
    /// `HCIDEVDOWN = _IOW('H', 202, int)`.
    public static let ioctlDeviceDown: UInt = 0x4004_48CA
    /// `HCIGETDEVLIST = _IOR('H', 210, int)`.
    public static let ioctlGetDeviceList: UInt = 0x8004_48D2
    /// `HCIGETDEVINFO = _IOR('H', 211, int)`.
    public static let ioctlGetDeviceInfo: UInt = 0x8004_48D3

    /// `sizeof(struct hci_dev_info)` on Linux (x86-64 and arm64 alike: no pointers inside).
    public static let deviceInfoSize = 92

    /// `ERFKILL` and `EUSERS`, which Glibc's Swift overlay may not name.
    public static let errnoRFKill: Int32 = 132
    public static let errnoUsers: Int32 = 87
}

/// `struct sockaddr_hci { sa_family_t hci_family; unsigned short hci_dev; unsigned short hci_channel; }`.
public struct HCISocketAddress: Equatable, Sendable {
    public var device: UInt16
    public var channel: UInt16

    public init(device: UInt16, channel: UInt16) {
        self.device = device
        self.channel = channel
    }

    /// The six bytes `bind` takes, in host byte order as the kernel reads them.
    public var bytes: [UInt8] {
        let fields: (UInt16, UInt16, UInt16) = (UInt16(HCISocketABI.addressFamily), device, channel)
        return withUnsafeBytes(of: fields) { Array($0) }
    }
}
