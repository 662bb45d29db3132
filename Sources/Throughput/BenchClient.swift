import HCIPackets
import GATT
import HILResults
import Roles
import EventLoops

/// The central's half of a bench run against a peer serving a stream (Bumble's `bench` GATT server, a
/// simulated accessory with `bench`, or an accessory whose rig names the characteristics): it receives the
/// peer's notifications, or writes to the peer, and measures what moved.
package struct BenchClient: Sendable {
    package let link: LEConnection
    /// The characteristic that notifies (the peer's packets to us).
    package let notifying: GATTServiceTree.Characteristic
    /// The characteristic we write to, when the peer has one (ACKs and write runs need it).
    package let writable: GATTServiceTree.Characteristic?

    /// Finds the characteristics on the peer: by default those of Bumble's bench service.
    package static func find(on link: LEConnection, notifying: BluetoothUUID = SpeedService.rx,
                            writable: BluetoothUUID? = SpeedService.tx) async throws(ThroughputError) -> BenchClient {
        let tree: GATTServiceTree
        do {
            tree = try await link.gatt.discoverAll()
        } catch {
            throw .att(error)
        }
        guard let rx = tree.characteristic(notifying) else {
            throw .notFound("the peer has no characteristic \(notifying) to stream from (services: \(tree.services.map { "\($0.uuid)" }.joined(separator: ", ")))")
        }
        guard rx.properties.contains(.notify) else { throw .notFound("characteristic \(notifying) does not notify (properties: \(rx.properties))") }
        return BenchClient(link: link, notifying: rx, writable: writable.flatMap { tree.characteristic($0) })
    }

    /// Subscribes and counts the peer's notifications for `duration` from the first SEQUENCE packet (or
    /// until the sender's last packet, which is acknowledged), then unsubscribes. Fails when nothing comes
    /// within `startTimeout`.
    package func receive(for duration: Duration, startTimeout: Duration = .seconds(5)) async throws(ThroughputError) -> ThroughputReport {
        let stream: AsyncStream<GATTNotification>
        do {
            stream = try await link.gatt.subscribe(to: notifying, indications: false)
        } catch {
            throw .att(error)
        }
        let loop = link.host.loop
        let started = loop.now
        let writable = writable, link = link
        let meter = await BenchMeter.count(stream, window: duration, limit: startTimeout + duration, on: loop, value: { $0.value }) { ack in
            if let writable { try? await link.gatt.writeWithoutResponse(handle: writable.valueHandle, value: ack.encoded) }
        }
        let ended = loop.now
        try? await link.gatt.unsubscribe(from: notifying)
        guard meter.packets > 0 else {
            let instead = await link.isConnected ? "the link stayed up and quiet" : "the link ended"
            throw .silent(awaited: "notification of a SEQUENCE packet on \(notifying.uuid)", timeout: started.duration(to: ended), instead: instead)
        }
        let figures = await LinkFigures(link, receiving: true)
        return figures.report(mode: "notify", meterBytes: meter.bytes, packets: meter.packets, gaps: meter.gaps,
                              seconds: meter.seconds(endedAt: ended), latency: meter.latencyPercentiles,
                              acknowledged: meter.lastSeen ? writable != nil : nil)
    }

    /// Writes SEQUENCE packets of ATT_MTU − 3 octets (Write Without Response) for `duration`, the last one
    /// marked last, then waits up to `ackTimeout` for the peer's ACK notification.
    package func send(for duration: Duration, ackTimeout: Duration = .seconds(5)) async throws(ThroughputError) -> ThroughputReport {
        guard let writable else { throw .notFound("the peer has no characteristic to write the stream to") }
        // RESET before subscribing for the ACK: a peer that streams to whoever subscribes (a simulated accessory
        // with bench) knows from it that this central sends instead.
        let acks: AsyncStream<GATTNotification>
        do {
            try await link.gatt.writeWithoutResponse(handle: writable.valueHandle, value: BenchPacket.reset.encoded)
            acks = try await link.gatt.subscribe(to: notifying, indications: false)
        } catch {
            throw .att(error)
        }
        let loop = link.host.loop
        let mtu = await link.gatt.mtu
        var waits: [Double] = []
        var bytes = 0
        var number: UInt32 = 0
        let started: ContinuousClock.Instant
        do throws(ATTError) {
            started = loop.now
            var last = false
            while !last {
                let now = loop.now
                last = started.duration(to: now) >= duration
                let packet = BenchPacket.sequence(number: number, timestampMicroseconds: UInt32(truncatingIfNeeded: Int(BenchMeter.milliseconds(started.duration(to: now)) * 1_000)),
                                                  last: last, length: mtu - 3).encoded
                try await link.gatt.writeWithoutResponse(handle: writable.valueHandle, value: packet)
                waits.append(BenchMeter.milliseconds(now.duration(to: loop.now)))
                bytes += packet.count
                number &+= 1
            }
        } catch {
            throw .att(error)
        }
        let lastNumber = number &- 1
        let sent = loop.now
        let acknowledged = await Self.firstAck(acks, number: lastNumber, loop: link.host.loop, timeout: ackTimeout)
        try? await link.gatt.unsubscribe(from: notifying)
        let end = acknowledged ?? sent
        let figures = await LinkFigures(link, receiving: false)
        let percentiles = SampleStatistics.percentiles(waits)
        return figures.report(mode: "write", meterBytes: bytes, packets: Int(number), gaps: 0,
                              seconds: BenchMeter.milliseconds(started.duration(to: end)) / 1_000,
                              latency: (percentiles.p50, percentiles.p95), acknowledged: acknowledged != nil)
    }

    /// The instant the ACK of packet `number` came, or nil when none came within `timeout`.
    static func firstAck(_ acks: AsyncStream<GATTNotification>, number: UInt32, loop: EventLoop, timeout: Duration) async -> ContinuousClock.Instant? {
        await untilDeadline(timeout, on: loop) {
            for await notification in acks {
                if case .ack(number, _)? = BenchPacket(decoding: notification.value) { return loop.now }
            }
            return nil
        }
    }
}
