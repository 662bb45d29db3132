import CLibUSB
import Foundation
import HCIPackets
import EventLoops
import HCITransports
import LibUSB
import Synchronization

/// `usb:SELECTOR`: a USB Bluetooth controller driven through libusb (Core v5.4 Vol 4 Part B).
///
/// Commands go out as class requests on endpoint 0, events come from the interrupt IN endpoint, ACL
/// data travels on the bulk endpoints; both IN streams are reassembled by their HCI headers. An Intel
/// bootloader (`setIntelBootloader`) takes Secure Send on bulk OUT and may answer on bulk IN. Every
/// transfer is asynchronous. On Linux the host's event loop runs libusb's event handling itself: it watches
/// libusb's descriptors (`LibUSBPollSet`) and calls `libusb_handle_events_timeout_completed` without
/// blocking, so a completion is decoded and handed to the host on the host's own thread (a dedicated
/// event thread that handed each packet over with `loop.execute` cost about a millisecond per command
/// round trip in the kernel tier's guest; see scripts/bench/bench-transports). Elsewhere one dedicated thread runs
/// `libusb_handle_events` and hands packets over. Any transfer that ends in error loses the transport with
/// libusb's name for the error. Closing is strict: cancel every transfer, wait for their callbacks, stop
/// handling libusb's events, then release the interface (libusb re-attaches the kernel driver it detached)
/// and close.
package final class USBTransport: HCITransport {
    private struct State {
        var receive: (@Sendable (HCITransportEvent) -> Void)?
        var loop: EventLoop?
        var started = false
        /// No more sends or resubmissions.
        var stopping = false
        var stopDeadline: ContinuousClock.Instant?
        var cancelled = false
        var closedDelivered = false
        var finished = false
        var failure: HCITransportError?
        /// Addresses of submitted transfers not yet called back.
        var inFlight: Set<UInt> = []
        var events = USBPacketReassembler(kind: .event)
        var acl = USBPacketReassembler(kind: .acl)
        /// Intel's bootloader mode (`setIntelBootloader`) and the events it sends on bulk IN.
        var intelBootloader = false
        var bulkEvents = USBPacketReassembler(kind: .event)
        var leaked = 0
        /// The loop is inside `libusb_handle_events` (set and read on the loop's thread only).
        var dispatching = false
    }

    package let moniker: String
    /// The device chosen, e.g. `1-1 2fe3:000b/8A1F44C2`.
    package let device: USBCandidate
    package let endpoints: HCIEndpoints
    /// The kernel driver that was detached to claim the interface (`btusb`), re-attached on close.
    package let detachedDriver: String?
    private let session: LibUSBSession
    private let writeDeadline: Duration
    private let state = Mutex(State())
    private let threadEnded = DispatchSemaphore(value: 0)
    /// libusb's descriptors as one, when the host's loop runs libusb's events (Linux); nil: a thread does.
    private let pollSet: LibUSBPollSet?
    /// True while the session is open; held around every `libusb_handle_events` call of the loop path, so
    /// that the session is never finished under a running event handler.
    private let eventsGate = Mutex(true)
    /// Bulk IN transfers kept in flight, so ACL from the controller never waits for a resubmission.
    private static let bulkInCount = 4
    private static let bulkInSize = 4096
    private static let interruptInSize = 1024

    private init(moniker: String, device: USBCandidate, endpoints: HCIEndpoints, detachedDriver: String?,
                 session: LibUSBSession, writeDeadline: Duration, pollSet: LibUSBPollSet?) {
        self.moniker = moniker
        self.pollSet = pollSet
        self.device = device
        self.endpoints = endpoints
        self.detachedDriver = detachedDriver
        self.session = session
        self.writeDeadline = writeDeadline
    }

    /// Opens the device `selector` names (see `USBSelector`), claims its HCI interface and starts the
    /// event thread. Errors name the selector, the device and what to do.
    package static func open(selector text: String, moniker: String, writeDeadline: Duration = .seconds(2),
                            sysfs: String = "/sys") throws(HCITransportError) -> USBTransport {
        let selector: USBSelector
        do { selector = try USBSelector(parsing: text) } catch { throw HCITransportError(.invalidMoniker, error.description) }
        let session = try LibUSBSession.make(moniker: moniker)
        let all = session.candidates(sysfs: sysfs)
        let chosen: USBCandidate
        do { chosen = try selector.select(from: all.map(\.candidate)) } catch {
            session.finish()
            throw HCITransportError(.notFound, error.description)
        }
        guard let entry = all.first(where: { $0.candidate == chosen }) else {
            session.finish()
            throw HCITransportError(.notFound, "\(moniker): \(chosen.summary) vanished during selection")
        }
        guard let configuration = entry.configuration else {
            session.finish()
            throw HCITransportError(.io, "\(moniker): cannot read the configuration descriptor of \(chosen.summary)")
        }
        let endpoints: HCIEndpoints
        do { endpoints = try configuration.hciEndpoints(forced: selector.forced) } catch {
            session.finish()
            throw HCITransportError(.unsupported, "\(moniker): \(chosen.summary): \(error)")
        }
        let driver: String?
        do { driver = try session.open(entry.device, candidate: chosen, endpoints: endpoints, moniker: moniker) } catch {
            session.finish()
            throw error
        }
        let pollSet = LibUSBPollSet.make(context: session.context)
        let transport = USBTransport(moniker: moniker, device: chosen, endpoints: endpoints, detachedDriver: driver,
                                     session: session, writeDeadline: writeDeadline, pollSet: pollSet)
        if pollSet == nil {
            let thread = Thread { [transport] in transport.runEvents() }
            thread.name = "usb-events \(moniker)"
            thread.start()
        }
        return transport
    }

    // MARK: HCITransport

    package func start(on loop: EventLoop, receive: @escaping @Sendable (HCITransportEvent) -> Void) throws(HCITransportError) {
        let failure: HCITransportError? = state.withLock { state -> HCITransportError? in
            if state.stopping { return state.failure ?? HCITransportError(.closedByHost, "\(moniker): cannot start: transport is closed") }
            if state.started { return nil }
            state.started = true
            state.receive = receive
            state.loop = loop
            if let error = submitIn(endpoint: endpoints.interruptIn.address, type: LIBUSB_TRANSFER_TYPE_INTERRUPT, size: Self.interruptInSize, state: &state) {
                return error
            }
            for _ in 0..<Self.bulkInCount {
                if let error = submitIn(endpoint: endpoints.bulkIn.address, type: LIBUSB_TRANSFER_TYPE_BULK, size: Self.bulkInSize, state: &state) {
                    return error
                }
            }
            return nil
        }
        if let failure {
            close()
            throw failure
        }
        if let pollSet {
            loop.watch(fd: pollSet.fd) { [self] in handleReadyEvents() }
        }
    }

    /// Intel Secure Send's opcode (OGF 0x3F, OCF 0x09).
    static let intelSecureSend: UInt16 = 0xFC09

    /// Intel's bootloader mode, as btusb drives it while btintel loads firmware (`btusb_send_frame_intel`,
    /// `btusb_recv_bulk_intel`): while on, Secure Send goes out on bulk OUT as a bare command (opcode,
    /// length, parameters) and what comes in on bulk IN are events, not ACL data.
    package func setIntelBootloader(_ on: Bool) {
        state.withLock { state in
            state.intelBootloader = on
            state.bulkEvents = USBPacketReassembler(kind: .event)
        }
    }

    package func send(_ packet: HCIPacket) throws(HCITransportError) {
        let endpoint: UInt8
        let type: libusb_transfer_type
        var bytes: [UInt8]
        var flags: UInt8 = 0
        switch packet {
        case .command(let command) where command.opcode.rawValue == Self.intelSecureSend && state.withLock({ $0.intelBootloader }):
            // btusb_send_frame_intel: in the bootloader, Secure Send goes down the bulk endpoint as a bare command.
            endpoint = endpoints.bulkOut.address
            type = LIBUSB_TRANSFER_TYPE_BULK
            bytes = [UInt8(command.opcode.rawValue & 0xFF), UInt8(command.opcode.rawValue >> 8), UInt8(truncatingIfNeeded: command.parameters.count)]
                + command.parameters
            if bytes.count % max(endpoints.bulkOut.packetSize, 1) == 0 { flags |= UInt8(LIBUSB_TRANSFER_ADD_ZERO_PACKET.rawValue) }
        case .command(let command):
            endpoint = 0
            type = LIBUSB_TRANSFER_TYPE_CONTROL
            bytes = HCIClassRequest(command).transferBuffer
        case .aclData(let acl):
            endpoint = endpoints.bulkOut.address
            type = LIBUSB_TRANSFER_TYPE_BULK
            bytes = acl.bytes
            let size = max(endpoints.bulkOut.packetSize, 1)
            if bytes.count % size == 0 { flags |= UInt8(LIBUSB_TRANSFER_ADD_ZERO_PACKET.rawValue) }
        default:
            throw HCITransportError(.unsupported, "\(moniker): cannot send \(packet): SCO and ISO over USB need the isochronous interface, which this transport does not drive")
        }
        guard let transfer = Self.allocate(size: bytes.count) else {
            throw HCITransportError(.io, "\(moniker): out of memory for a \(bytes.count)-byte transfer")
        }
        bytes.withUnsafeBytes { raw in
            if let base = raw.baseAddress, let buffer = transfer.pointee.buffer { buffer.update(from: base.assumingMemoryBound(to: UInt8.self), count: raw.count) }
        }
        fill(transfer, endpoint: endpoint, type: type, length: bytes.count, timeout: writeDeadline, flags: flags)
        let failure: HCITransportError? = state.withLock { state -> HCITransportError? in
            if state.stopping {
                return state.failure ?? HCITransportError(.closedByHost, "\(moniker): cannot send \(packet): transport is closed")
            }
            let code = libusb_submit_transfer(transfer)
            guard code == 0 else {
                return USBAdvice.transferFailed(status: LibUSBError.name(code), what: "submitting \(packet)", moniker: moniker)
            }
            state.inFlight.insert(UInt(bitPattern: transfer))
            return nil
        }
        if let failure {
            Self.release(transfer)
            throw failure
        }
    }

    package func close() {
        let (first, loop, insideHandler) = state.withLock { state -> (Bool, EventLoop?, Bool) in
            if !state.stopping {
                state.stopping = true
                state.stopDeadline = .now.advanced(by: .seconds(2))
            }
            if state.finished { return (false, nil, false) }
            state.finished = true
            return (true, state.loop, state.dispatching && state.loop?.inLoop == true)
        }
        if first {
            if let pollSet {
                // Closed from inside a callback (the host reacting to a packet or a failure): libusb cannot
                // handle events re-entrantly, so the drain runs on the loop right after this callback.
                if insideHandler, let loop { loop.execute { [self] in drainAndFinish(pollSet, loop: loop) } }
                else { drainAndFinish(pollSet, loop: loop) }
            } else {
                libusb_interrupt_event_handler(session.context)
                // Join the event thread (it cancels the transfers and waits for their callbacks first).
                let joined = threadEnded.wait(timeout: .now() + .seconds(5)) == .success
                if joined { session.finish() } else { session.abandon() }
            }
        }
        deliverClosed(HCITransportError(.closedByHost, "\(moniker): closed by the host"))
    }

    // MARK: Events on the host's loop

    /// The loop saw one of libusb's descriptors ready: handle what is there without blocking. Completions
    /// run `completed(_:)` on this (the loop's) thread.
    private func handleReadyEvents() {
        eventsGate.withLock { alive in
            guard alive else { return }
            state.withLock { $0.dispatching = true }
            var zero = timeval(tv_sec: 0, tv_usec: 0)
            libusb_handle_events_timeout_completed(session.context, &zero, nil)
            state.withLock { $0.dispatching = false }
        }
    }

    /// Cancels every transfer, handles events until their callbacks ran (2 s at most), stops the loop
    /// watching libusb, then releases the interface and closes the session; with transfers still in flight
    /// after the deadline the session is left open rather than freed under them.
    private func drainAndFinish(_ pollSet: LibUSBPollSet, loop: EventLoop?) {
        eventsGate.withLock { alive in
            guard alive else { return }
            let toCancel = state.withLock { state -> [UInt] in
                state.cancelled = true
                return Array(state.inFlight)
            }
            for address in toCancel {
                if let transfer = UnsafeMutablePointer<libusb_transfer>(bitPattern: address) { libusb_cancel_transfer(transfer) }
            }
            let deadline = ContinuousClock.now.advanced(by: .seconds(2))
            while state.withLock({ !$0.inFlight.isEmpty }), ContinuousClock.now < deadline {
                var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
                libusb_handle_events_timeout_completed(session.context, &timeout, nil)
            }
            let leaked = state.withLock { state -> Int in
                state.leaked = state.inFlight.count
                return state.leaked
            }
            loop?.unwatch()
            pollSet.close(context: session.context)
            if leaked == 0 { session.finish() } else { session.abandon() }
            alive = false
        }
    }

    // MARK: Event thread

    private func runEvents() {
        while true {
            let (toCancel, done) = state.withLock { state -> ([UInt], Bool) in
                guard state.stopping else { return ([], false) }
                var cancel: [UInt] = []
                if !state.cancelled {
                    state.cancelled = true
                    cancel = Array(state.inFlight)
                }
                if state.inFlight.isEmpty { return (cancel, true) }
                if let deadline = state.stopDeadline, ContinuousClock.now >= deadline {
                    state.leaked = state.inFlight.count
                    return (cancel, true)
                }
                return (cancel, false)
            }
            // Cancelling here is safe: transfers are freed only in callbacks, which run on this thread.
            for address in toCancel {
                if let transfer = UnsafeMutablePointer<libusb_transfer>(bitPattern: address) { libusb_cancel_transfer(transfer) }
            }
            if done && toCancel.isEmpty { break }
            var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
            libusb_handle_events_timeout_completed(session.context, &timeout, nil)
        }
        threadEnded.signal()
    }

    fileprivate func completed(_ transfer: UnsafeMutablePointer<libusb_transfer>) {
        let status = transfer.pointee.status
        let endpoint = transfer.pointee.endpoint
        let isIn = endpoint & 0x80 != 0
        let isControl = transfer.pointee.type == UInt8(LIBUSB_TRANSFER_TYPE_CONTROL.rawValue)
        // Named only when something failed: a completion is on the round trip of every command.
        var what: String {
            if isControl { return "an HCI command (class request on endpoint 0)" }
            if endpoint == endpoints.interruptIn.address { return "reading events from interrupt endpoint 0x\(USBHex.byte(endpoint))" }
            if isIn { return "reading ACL data from bulk endpoint 0x\(USBHex.byte(endpoint))" }
            return "writing ACL data to bulk endpoint 0x\(USBHex.byte(endpoint))"
        }
        let outcome = state.withLock { state -> (packets: [HCIPacket], failure: HCITransportError?, keep: Bool,
                                                  receive: (@Sendable (HCITransportEvent) -> Void)?, loop: EventLoop?) in
            state.inFlight.remove(UInt(bitPattern: transfer))
            var packets: [HCIPacket] = []
            var failure: HCITransportError?
            var keep = false
            switch status {
            case LIBUSB_TRANSFER_COMPLETED:
                if isIn, let buffer = transfer.pointee.buffer {
                    let bytes = UnsafeBufferPointer(start: buffer, count: Int(max(0, transfer.pointee.actual_length)))
                    do {
                        packets = endpoint == endpoints.interruptIn.address ? try state.events.feed(bytes)
                            : state.intelBootloader ? try state.bulkEvents.feed(bytes) : try state.acl.feed(bytes)
                    } catch {
                        failure = HCITransportError(.framing, "\(moniker): \(what): \(error)")
                    }
                    if failure == nil && !state.stopping {
                        let code = libusb_submit_transfer(transfer)
                        if code == 0 {
                            state.inFlight.insert(UInt(bitPattern: transfer))
                            keep = true
                        } else {
                            failure = USBAdvice.transferFailed(status: LibUSBError.name(code), what: "resubmitting after \(what)", moniker: moniker)
                        }
                    }
                }
            case LIBUSB_TRANSFER_CANCELLED where state.stopping:
                break
            default:
                if !state.stopping { failure = USBAdvice.transferFailed(status: status.name, what: what, moniker: moniker) }
            }
            if let failure, state.failure == nil {
                state.failure = failure
                state.stopping = true
                state.stopDeadline = .now.advanced(by: .seconds(2))
            }
            return (packets, state.failure == failure ? failure : nil, keep, state.receive, state.loop)
        }
        if !outcome.keep { Self.release(transfer) }
        if let loop = outcome.loop, let receive = outcome.receive, !outcome.packets.isEmpty {
            let packets = outcome.packets
            // On the loop (libusb's events run there on Linux): straight to the host, no hop.
            if loop.inLoop { for packet in packets { receive(.packet(packet)) } }
            else { loop.execute { for packet in packets { receive(.packet(packet)) } } }
        }
        if let failure = outcome.failure { deliverClosed(failure) }
    }

    // MARK: Helpers

    /// Hands `.closed` to the host once, on its loop.
    private func deliverClosed(_ error: HCITransportError) {
        let target = state.withLock { state -> (receive: (@Sendable (HCITransportEvent) -> Void), loop: EventLoop)? in
            guard !state.closedDelivered, let receive = state.receive, let loop = state.loop else {
                state.closedDelivered = true
                return nil
            }
            state.closedDelivered = true
            state.receive = nil
            return (receive, loop)
        }
        guard let target else { return }
        let reason = state.withLock { $0.failure } ?? error
        if target.loop.inLoop { target.receive(.closed(reason)) } else { target.loop.execute { target.receive(.closed(reason)) } }
    }

    private func submitIn(endpoint: UInt8, type: libusb_transfer_type, size: Int, state: inout State) -> HCITransportError? {
        guard let transfer = Self.allocate(size: size) else { return HCITransportError(.io, "\(moniker): out of memory for transfers") }
        fill(transfer, endpoint: endpoint, type: type, length: size, timeout: .zero, flags: 0)
        let code = libusb_submit_transfer(transfer)
        guard code == 0 else {
            Self.release(transfer)
            return USBAdvice.transferFailed(status: LibUSBError.name(code), what: "submitting a read on endpoint 0x\(USBHex.byte(endpoint))", moniker: moniker)
        }
        state.inFlight.insert(UInt(bitPattern: transfer))
        return nil
    }

    private func fill(_ transfer: UnsafeMutablePointer<libusb_transfer>, endpoint: UInt8, type: libusb_transfer_type,
                      length: Int, timeout: Duration, flags: UInt8) {
        transfer.pointee.dev_handle = session.handle
        transfer.pointee.endpoint = endpoint
        transfer.pointee.type = UInt8(type.rawValue)
        transfer.pointee.flags = flags
        let ms = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        transfer.pointee.timeout = UInt32(clamping: ms)
        transfer.pointee.length = Int32(clamping: length)
        transfer.pointee.callback = usbTransferCallback
        transfer.pointee.user_data = Unmanaged.passUnretained(self).toOpaque()
    }

    private static func allocate(size: Int) -> UnsafeMutablePointer<libusb_transfer>? {
        guard let transfer = libusb_alloc_transfer(0) else { return nil }
        guard let buffer = malloc(max(size, 1)) else {
            libusb_free_transfer(transfer)
            return nil
        }
        transfer.pointee.buffer = buffer.assumingMemoryBound(to: UInt8.self)
        return transfer
    }

    private static func release(_ transfer: UnsafeMutablePointer<libusb_transfer>) {
        free(transfer.pointee.buffer)
        transfer.pointee.buffer = nil
        libusb_free_transfer(transfer)
    }
}

/// libusb's completion callback: runs inside `libusb_handle_events`, on the host's loop (Linux) or on the
/// transport's event thread. The transport outlives every callback: closing waits for every transfer's
/// callback before the session is finished, and the loop (or the thread) holds the transport until then.
private let usbTransferCallback: libusb_transfer_cb_fn = { transfer in
    guard let transfer, let context = transfer.pointee.user_data else { return }
    Unmanaged<USBTransport>.fromOpaque(context).takeUnretainedValue().completed(transfer)
}
