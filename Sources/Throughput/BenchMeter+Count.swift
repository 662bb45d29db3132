import EventLoops

extension BenchMeter {
    /// Counts the bench packets of `stream` (`value` gives an element's packet, nil to pass it over) for `window`
    /// from the first SEQUENCE packet, or until the sender's last packet, answered with `acknowledge`; stops
    /// with what it has at `limit` on the loop's clock.
    static func count<Element: Sendable>(_ stream: AsyncStream<Element>, window: Duration, limit: Duration, on loop: EventLoop,
                                         value: @escaping @Sendable (Element) -> [UInt8]?,
                                         acknowledge: @escaping @Sendable (BenchPacket) async -> Void) async -> BenchMeter {
        await untilDeadline(limit, on: loop) {
            var meter = BenchMeter(window: window)
            for await element in stream {
                guard let bytes = value(element) else { continue }
                switch meter.received(bytes, at: loop.now) {
                case .more: continue
                case .windowEnded: return meter
                case .last(let ack):
                    await acknowledge(ack)
                    return meter
                }
            }
            return meter
        }
    }
}
