import CLibUSB

extension libusb_transfer_status {
    /// libusb's name for how a transfer ended: `LIBUSB_TRANSFER_STALL`.
    var name: String {
        switch self {
        case LIBUSB_TRANSFER_COMPLETED: "LIBUSB_TRANSFER_COMPLETED"
        case LIBUSB_TRANSFER_ERROR: "LIBUSB_TRANSFER_ERROR"
        case LIBUSB_TRANSFER_TIMED_OUT: "LIBUSB_TRANSFER_TIMED_OUT"
        case LIBUSB_TRANSFER_CANCELLED: "LIBUSB_TRANSFER_CANCELLED"
        case LIBUSB_TRANSFER_STALL: "LIBUSB_TRANSFER_STALL"
        case LIBUSB_TRANSFER_NO_DEVICE: "LIBUSB_TRANSFER_NO_DEVICE"
        case LIBUSB_TRANSFER_OVERFLOW: "LIBUSB_TRANSFER_OVERFLOW"
        default: "libusb transfer status \(rawValue)"
        }
    }
}
