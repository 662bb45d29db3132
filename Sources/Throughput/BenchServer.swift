import GATT
import Roles

/// The peripheral's half of a bench run, as Bumble's `bench` GATT server plays it: serves the speed service,
/// streams SEQUENCE notifications on RX to a subscribed central, and counts what a central writes to TX,
/// acknowledging its last packet. A simulated accessory with `bench` runs it, and so does `hil bench
/// --peripheral`.
package struct BenchServer: Sendable {
    /// How the firmware streams: as fast as the link takes it (the default), paced, or with a fault to catch.
    package struct Behaviour: Sendable {
        /// Stops notifying once the ATT_MTU is above the default 23 (a firmware that breaks on a larger MTU).
        package var stopsWhenMTUGrows: Bool
        /// The time between packets on a link, as Bumble's bench `--pace` sets it (packet n goes at start + n ×
        /// pace, or as soon after as the link takes it); nil, or a nil answer: as fast as the link takes them.
        package var pace: (@Sendable (LEConnection) async -> Duration?)?

        package init(stopsWhenMTUGrows: Bool = false, pace: (@Sendable (LEConnection) async -> Duration?)? = nil) {
            self.stopsWhenMTUGrows = stopsWhenMTUGrows
            self.pace = pace
        }
    }

    /// Where the stream stops.
    package enum Limit: Sendable, Hashable {
        /// While the central stays subscribed (a simulated accessory's stream); never marks a last packet.
        case whileSubscribed
        /// For a duration, then a last packet, and the central's ACK awaited.
        case duration(Duration)
    }

    package let device: LEDevice
    package let rx: UInt16
    package let tx: UInt16

    /// Finds the speed service in the database `device` serves (add `SpeedService.definition` to it first).
    package init(device: LEDevice) async throws(ThroughputError) {
        guard let database = device.database, let rx = database.valueHandle(of: SpeedService.rx, in: SpeedService.service),
              let tx = database.valueHandle(of: SpeedService.tx, in: SpeedService.service) else {
            throw .notFound("the device serves no bench service \(SpeedService.service)")
        }
        self.device = device
        self.rx = rx
        self.tx = tx
    }

    /// Sends RESET then SEQUENCE packets of ATT_MTU − 3 octets on `link` until `limit` (or the central
    /// unsubscribes, or the link ends); returns the packets sent.
    @discardableResult
    package func stream(on link: LEConnection, limit: Limit, behaviour: Behaviour = Behaviour()) async -> Int {
        let loop = link.host.loop
        guard (try? await link.notify(valueHandle: rx, value: BenchPacket.reset.encoded)) == true else { return 0 }
        let started = loop.now
        let pace = await behaviour.pace?(link)
        var number: UInt32 = 0
        while !Task.isCancelled {
            if let pace { try? await Task.sleep(until: started.advanced(by: pace * Int(number)), clock: loop.clock) }
            let mtu = await link.gatt.mtu
            if behaviour.stopsWhenMTUGrows && mtu > 23 { return Int(number) }
            let now = loop.now
            var last = false
            if case .duration(let duration) = limit { last = started.duration(to: now) >= duration }
            let micros = UInt32(truncatingIfNeeded: Int(BenchMeter.milliseconds(started.duration(to: now)) * 1_000))
            let packet = BenchPacket.sequence(number: number, timestampMicroseconds: micros, last: last, length: mtu - 3)
            guard (try? await link.notify(valueHandle: rx, value: packet.encoded)) == true else { return Int(number) }
            number &+= 1
            if last { return Int(number) }
        }
        return Int(number)
    }

    /// Counts the SEQUENCE packets a central writes to TX on `link` for `window` from its first (or until
    /// its last packet, which is acknowledged with an ACK notification); nil when nothing came within `startTimeout`.
    package func receive(on link: LEConnection, window: Duration, startTimeout: Duration) async -> BenchMeter? {
        let writes = await device.attributeWrites()
        let loop = link.host.loop
        let handle = link.handle, tx = tx, rx = rx
        let meter = await BenchMeter.count(writes, window: window, limit: startTimeout + window, on: loop,
                                           value: { $0.connection == handle && $0.handle == tx ? $0.value : nil }) { ack in
            _ = try? await link.notify(valueHandle: rx, value: ack.encoded)
        }
        return meter.packets > 0 ? meter : nil
    }
}

extension BenchServer {
    /// The firmware's side for every central, until cancelled: streams to each central that subscribes to RX
    /// (while it stays subscribed) unless that central wrote a RESET to TX first (it sends: its subscription is
    /// for the ACK), and acknowledges each central's last written packet.
    package func run(behaviour: Behaviour = Behaviour()) async {
        let writes = await device.attributeWrites()
        var meters: [UInt16: BenchMeter] = [:]
        var streams: [UInt16: Task<Void, Never>] = [:]
        // Centrals that wrote a RESET: they send, so their subscription is for the ACK, not for a stream.
        var senders: Set<UInt16> = []
        defer { for task in streams.values { task.cancel() } }
        for await write in writes {
            guard let link = await device.connections[write.connection] else { continue }
            if write.handle == rx {
                // A Client Characteristic Configuration write, reported against the value it configures.
                streams[write.connection]?.cancel()
                streams[write.connection] = nil
                guard write.value.first.map({ $0 & 0x01 != 0 }) == true, !senders.contains(write.connection) else { continue }
                let loop = link.host.loop
                streams[write.connection] = Task(executorPreference: loop) {
                    await self.stream(on: link, limit: .whileSubscribed, behaviour: behaviour)
                }
            } else if write.handle == tx {
                if BenchPacket(decoding: write.value) == .reset {
                    senders.insert(write.connection)
                    streams[write.connection]?.cancel()
                    streams[write.connection] = nil
                }
                var meter = meters[write.connection] ?? BenchMeter(window: nil)
                if case .last(let ack) = meter.received(write.value, at: link.host.loop.now) {
                    meter = BenchMeter(window: nil)
                    _ = try? await link.notify(valueHandle: rx, value: ack.encoded)
                }
                meters[write.connection] = meter
            }
        }
    }
}

extension BenchServer {
    /// The report of a stream this server sent on `link`: `packets` of ATT_MTU − 3 octets from `started` to
    /// `ended` (now when nil); `acknowledged` says whether the central acknowledged the last (nil: not asked).
    package func streamReport(on link: LEConnection, packets: Int, since started: ContinuousClock.Instant,
                             until ended: ContinuousClock.Instant? = nil, acknowledged: Bool? = nil) async -> ThroughputReport {
        let seconds = BenchMeter.milliseconds(started.duration(to: ended ?? link.host.loop.now)) / 1_000
        let figures = await LinkFigures(link, receiving: false)
        return figures.report(mode: "notify", meterBytes: packets * (figures.mtu - 3), packets: packets, gaps: 0, seconds: seconds,
                              latency: (0, 0), acknowledged: acknowledged)
    }

    /// The report of what a central wrote on `link`, as `meter` counted it up to now.
    package func receiveReport(on link: LEConnection, _ meter: BenchMeter) async -> ThroughputReport {
        let figures = await LinkFigures(link, receiving: true)
        return figures.report(mode: "write", meterBytes: meter.bytes, packets: meter.packets, gaps: meter.gaps,
                              seconds: meter.seconds(endedAt: link.host.loop.now), latency: meter.latencyPercentiles, acknowledged: meter.lastSeen)
    }
}
