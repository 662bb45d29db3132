import HCITransports
#if canImport(Glibc)
import Glibc
#endif

/// Turns the errno of each step of opening `hci-socket:N` into an error that says what to do.
///
/// The steps are `socket(AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI)`, `ioctl(HCIDEVDOWN)` and
/// `bind(HCI_CHANNEL_USER)`; the kernel's answers are in net/bluetooth/hci_sock.c.
package enum HCISocketAdvice {
    /// Which call failed.
    package enum Step: String, Sendable {
        case socket = "socket(AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI)"
        case deviceDown = "ioctl(HCIDEVDOWN)"
        case bind = "bind(HCI_CHANNEL_USER)"
        case deviceList = "ioctl(HCIGETDEVLIST)"
        case deviceInfo = "ioctl(HCIGETDEVINFO)"
    }

    /// The typed error for `code` at `step` on adapter `index`, with the fix in the message.
    package static func error(_ code: Int32, step: Step, index: Int, moniker: String) -> HCITransportError {
        let adapter = "hci\(index)"
        let what = "\(moniker): \(step.rawValue) failed with \(errnoName(code))"
        switch code {
        case EAFNOSUPPORT, EPROTONOSUPPORT:
            return HCITransportError(.unsupported,
                "\(what): this kernel has no Bluetooth sockets. Load the module ('modprobe bluetooth'), "
                + "or use a kernel built with CONFIG_BT; inside a container, use the host's adapter through usb: instead")
        case EPERM, EACCES:
            return HCITransportError(.permissionDenied,
                "\(what): taking \(adapter) for exclusive use needs CAP_NET_ADMIN. Run as root, or grant it once: "
                + "'sudo setcap cap_net_admin+ep $(command -v hil)'")
        case EBUSY:
            return HCITransportError(.io,
                "\(what): \(adapter) is in use: it is up or being set up by the kernel's Bluetooth stack, usually because "
                + "bluetoothd powers it back on. Stop bluetoothd ('sudo systemctl stop bluetooth'), or run "
                + "'sudo btmgmt --index \(index) power off', then retry")
        case HCISocketABI.errnoUsers:
            return HCITransportError(.io,
                "\(what): another program already holds \(adapter)'s user channel (a second hil, Bumble or btproxy); "
                + "stop it first (see 'sudo ss -p --family bluetooth' or 'sudo lsof | grep AF_BLUETOOTH')")
        case HCISocketABI.errnoRFKill:
            return HCITransportError(.permissionDenied,
                "\(what): \(adapter) is blocked by rfkill; unblock it with 'sudo rfkill unblock bluetooth'")
        case ENODEV, ENXIO:
            return HCITransportError(.notFound,
                "\(what): there is no adapter \(adapter) (see 'hil adapters'; a USB adapter bound to btusb appears as hciN)")
        case EINVAL where step == .bind:
            return HCITransportError(.unsupported,
                "\(what): this kernel does not offer HCI_CHANNEL_USER for \(adapter) (Linux 3.13 or later is needed), "
                + "or the adapter is not a primary controller")
        case EALREADY:
            return HCITransportError(.io, "\(what): the socket is already bound")
        default:
            return HCITransportError(.io, "\(what)")
        }
    }

    /// `EBUSY (Device or resource busy)`.
    package static func errnoName(_ code: Int32) -> String {
        let names: [Int32: String] = [
            EPERM: "EPERM", ENOENT: "ENOENT", EIO: "EIO", ENXIO: "ENXIO", EBADF: "EBADF", EAGAIN: "EAGAIN",
            EACCES: "EACCES", EBUSY: "EBUSY", ENODEV: "ENODEV", EINVAL: "EINVAL", EPIPE: "EPIPE",
            EAFNOSUPPORT: "EAFNOSUPPORT", EPROTONOSUPPORT: "EPROTONOSUPPORT", EALREADY: "EALREADY",
            ENETDOWN: "ENETDOWN", EOPNOTSUPP: "EOPNOTSUPP", EMSGSIZE: "EMSGSIZE",
            HCISocketABI.errnoRFKill: "ERFKILL", HCISocketABI.errnoUsers: "EUSERS",
        ]
        return "\(names[code] ?? "errno \(code)") (\(String(cString: strerror(code))))"
    }
}
