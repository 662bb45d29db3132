import Support
import HCITransports
import EventLoops
#if canImport(Glibc)
import Glibc
#endif

/// `hci-socket:N`: one Linux adapter on `HCI_CHANNEL_USER`, the kernel's own host stack stepped aside.
///
/// Opening brings the adapter down (`HCIDEVDOWN`: the user channel cannot be bound while it is up) and
/// binds the user channel, retrying `EBUSY` for `bindDeadline` (an unpowered controller is still being
/// closed for a moment after the ioctl). Each read returns exactly one packet with its H4 indicator;
/// each write sends one. Closing the socket hands the adapter back to the kernel.
package enum HCISocketTransport {
    /// Opens `hci-socket:index`. Errors say which call failed and what to do (see `HCISocketAdvice`).
    package static func open(index: Int, moniker: String, bindDeadline: Duration = .seconds(3),
                            writeDeadline: Duration = .seconds(2)) throws(HCITransportError) -> FileDescriptorTransport {
        guard (0..<Int(HCISocketABI.deviceNone)).contains(index) else {
            throw HCITransportError(.invalidMoniker, "\(moniker): adapter number \(index) is out of range")
        }
        let fd: Int32
        switch HCISocket.open() {
        case .success(let opened): fd = opened
        case .failure(let error): throw HCISocketAdvice.error(error.code, step: .socket, index: index, moniker: moniker)
        }
        // Down first: binding the user channel needs the adapter closed. ENODEV and EPERM come back
        // again from bind with the same meaning, so only other failures are reported from here.
        if let error = HCISocket.deviceControl(fd, HCISocketABI.ioctlDeviceDown, index: index),
           error.code != EPERM, error.code != EACCES, error.code != EALREADY {
            HCISocket.close(fd)
            throw HCISocketAdvice.error(error.code, step: .deviceDown, index: index, moniker: moniker)
        }
        let address = HCISocketAddress(device: UInt16(index), channel: HCISocketABI.channelUser)
        let clock = ContinuousClock()
        let start = clock.now
        var attempts = 0
        while true {
            attempts += 1
            guard let error = HCISocket.bind(fd, address) else { break }
            let elapsed = clock.now - start
            if error.code == EBUSY && elapsed < bindDeadline {
                // Still closing, or something powered it back on: bring it down again and retry.
                _ = HCISocket.deviceControl(fd, HCISocketABI.ioctlDeviceDown, index: index)
                usleep(50_000)
                continue
            }
            HCISocket.close(fd)
            var failure = HCISocketAdvice.error(error.code, step: .bind, index: index, moniker: moniker)
            if error.code == EBUSY {
                failure = HCITransportError(failure.kind, failure.message + " (still busy after \(attempts) attempts over \(formatDuration(elapsed)))")
            }
            throw failure
        }
        let semantics = FileDescriptorSemantics(
            wholePacketWrites: true,
            describeFailure: { code, operation in lost(code, moniker: moniker, index: index, while: operation) },
            closedByPeerMessage: "\(moniker): hci\(index) closed the socket")
        return FileDescriptorTransport(moniker: moniker, fd: fd, semantics: semantics, writeDeadline: writeDeadline)
    }

    /// The error for a socket that failed after it was bound.
    static func lost(_ code: Int32, moniker: String, index: Int, while doing: String) -> HCITransportError {
        switch code {
        case EPIPE, ENODEV, ENETDOWN, ENXIO:
            return HCITransportError(.closedByPeer, "\(moniker): hci\(index) went away during \(doing) (\(HCISocketAdvice.errnoName(code))): unplugged, reset by its driver, or its driver unbound")
        default:
            return HCITransportError(.io, "\(moniker): \(doing) failed: \(HCISocketAdvice.errnoName(code))")
        }
    }
}
