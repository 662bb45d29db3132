#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PowerMeters
import Support
import Synchronization

/// A meter's USB CDC ACM (or any serial) port, raw: no echo, no line discipline, 8N1. The speed is left as it
/// is, since a CDC ACM device ignores it. Reads wait on their own thread (`offPool`), in slices of 50 ms so
/// that a cancelled wait ends within one slice; the descriptor is closed once, under the lock every call takes.
package final class SerialMeterChannel: MeterChannel {
    package let name: String
    private let descriptor: Mutex<Int32>

    /// Opens `path` (a tty: /dev/ttyACM0, a pty). Throws `PowerMeterError(.unavailable)` naming the path and why.
    package init(path: String) throws(PowerMeterError) {
        name = path
        let fd: Int32
        do {
            fd = try RawTerminal.open(path)
        } catch {
            switch error {
            case .open(let failure):
                let advice = failure.code == EACCES || failure.code == EPERM ? " (add yourself to the 'dialout' group)" : ""
                throw PowerMeterError(.unavailable, "cannot open the meter's port \(path): \(failure)\(advice)")
            case .notATerminal(let failure): throw PowerMeterError(.unavailable, "\(path) is not a serial port: \(failure)")
            case .configure(let failure): throw PowerMeterError(.unavailable, "cannot configure \(path): \(failure)")
            }
        }
        descriptor = Mutex(fd)
    }

    package func send(_ octets: [UInt8]) async throws(PowerMeterError) {
        var offset = 0
        while offset < octets.count {
            let (written, code): (Int, Int32) = descriptor.withLock { fd in
                guard fd >= 0 else { return (-1, EBADF) }
                let written = octets[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                return (written, errno)
            }
            if written > 0 { offset += written; continue }
            if written < 0 && code == EINTR { continue }
            if written < 0 && code == EAGAIN {
                // The port's queue is full: wait until it takes octets again, off the pool, for at most 2 s.
                if Task.isCancelled { throw PowerMeterError(.io, "\(name): the write of \(octets.count) octets was cancelled") }
                guard await writable(within: 2000) else {
                    throw PowerMeterError(.timeout, "\(name): the port took no octets for 2 s (\(offset) of \(octets.count) written)")
                }
                continue
            }
            throw PowerMeterError(.io, "\(name): write failed: \(String(cString: strerror(code)))")
        }
    }

    /// Whether the port can take octets within `milliseconds` (poll's POLLOUT, on its own thread).
    private func writable(within milliseconds: Int32) async -> Bool {
        let ready = try? await offPool { [self] () throws -> Bool in
            let fd = descriptor.withLock { $0 }
            guard fd >= 0 else { return false }
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            return poll(&poller, 1, milliseconds) != 0  // ready, or interrupted: the write says which
        }
        return ready ?? false
    }

    package func nextRead() async throws -> MeterRead {
        let cancelled = CancelFlag()
        let slice = 50
        return try await withTaskCancellationHandler {
            try await offPool { [self] () throws -> MeterRead in
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while !cancelled.value.load(ordering: .relaxed) {
                    let fd = descriptor.withLock { $0 }
                    guard fd >= 0 else { throw PowerMeterError(.io, "\(name): the port is closed") }
                    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    let ready = poll(&poller, 1, Int32(slice))
                    if ready == 0 || (ready < 0 && errno == EINTR) { continue }
                    let (count, code): (Int, Int32) = descriptor.withLock { fd in
                        guard fd >= 0 else { return (-1, EBADF) }
                        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                        return (count, errno)
                    }
                    if count > 0 {
                        let (total, drained) = gather(after: count, into: &buffer)
                        return MeterRead(octets: Array(buffer[0..<total]), drained: drained)
                    }
                    if count == 0 || code == EIO { throw PowerMeterError(.io, "\(name): the meter's port closed (the device went away)") }
                    if code == EAGAIN || code == EINTR { continue }
                    throw PowerMeterError(.io, "\(name): read failed: \(String(cString: strerror(code)))")
                }
                throw CancellationError()
            }
        } onCancel: {
            cancelled.value.store(true, ordering: .relaxed)
        }
    }

    /// How long the port must stay quiet for `discardPending` to end, and how long it may take at most (a meter
    /// that goes on streaming is then left for the reading to find).
    static let quiet: Duration = .milliseconds(20)
    static let discardLimit: Duration = .seconds(1)

    package func discardPending() async {
        _ = try? await offPool { [self] () throws in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let clock = ContinuousClock(), deadline = clock.now.advanced(by: Self.discardLimit)
            let quiet = Int32(Self.quiet / .milliseconds(1))
            descriptor.withLock { fd in if fd >= 0 { _ = tcflush(fd, TCIFLUSH) } }
            while clock.now < deadline {
                var poller = pollfd(fd: descriptor.withLock { $0 }, events: Int16(POLLIN), revents: 0)
                guard poller.fd >= 0 else { return }
                let ready = poll(&poller, 1, quiet)
                if ready == 0 { return }
                if ready < 0 && errno == EINTR { continue }
                let count = descriptor.withLock { fd in
                    fd < 0 ? -1 : buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                }
                guard count > 0 else { return }
            }
        }
    }

    /// How long a read that got octets goes on taking what follows them while more comes within `gap`: a PPK2 sends
    /// 400,000 octets a second, which a USB serial port hands over in pieces of a packet or two; gathered, they
    /// cost tens of reads a second (each on a thread of its own) rather than hundreds. A read ends at most `gap`
    /// after its last octets came, so that the instant it ends still tells when they came (a PPK2 stream's anchor).
    static let gathering: Duration = .milliseconds(20)
    static let gap: Duration = .milliseconds(1)

    /// Reads what comes after the `count` octets already in `buffer` (each piece within `gap` of the one before, for
    /// `gathering` at most), until it is full; returns how many it holds, and whether it ended because nothing more
    /// came within `gap` (the port drained) rather than with the buffer full or the time up. What fails or closes
    /// here is left for the next read to see.
    private func gather(after count: Int, into buffer: inout [UInt8]) -> (Int, drained: Bool) {
        var total = count
        let clock = ContinuousClock(), deadline = clock.now.advanced(by: Self.gathering)
        let gap = Int32(Self.gap / .milliseconds(1))
        while total < buffer.count, clock.now < deadline {
            var poller = pollfd(fd: descriptor.withLock { $0 }, events: Int16(POLLIN), revents: 0)
            guard poller.fd >= 0 else { break }
            let ready = poll(&poller, 1, gap)
            if ready == 0 { return (total, true) }
            guard ready > 0 else { break }
            let more: Int = descriptor.withLock { fd in
                guard fd >= 0 else { return 0 }
                return buffer.withUnsafeMutableBytes { bytes in
                    bytes.baseAddress.map { read(fd, $0 + total, bytes.count - total) } ?? 0
                }
            }
            guard more > 0 else { break }
            total += more
        }
        return (total, false)
    }

    package func close() {
        descriptor.withLock { fd in
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
        }
    }

    deinit { close() }
}

/// Set when the task waiting in `nextRead` is cancelled, read by the thread that waits for it.
private final class CancelFlag: Sendable {
    let value = Atomic<Bool>(false)
}
