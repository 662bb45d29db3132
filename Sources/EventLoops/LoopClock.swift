/// The clock an event loop keeps its deadlines on: real time (`ContinuousClock`), or the virtual time of a
/// simulated bench (`VirtualTime`). It is a Swift `Clock`, so `Task.sleep(for:clock:)`, measurements
/// (`clock.now`, `start.duration(to: clock.now)`) and deadlines all read the bench's time.
public struct LoopClock: Clock, Sendable {
    public typealias Instant = ContinuousClock.Instant

    /// The virtual time, or nil for real time.
    public let virtual: VirtualTime?

    public init(virtual: VirtualTime?) {
        self.virtual = virtual
    }

    /// Real time.
    public static let real = LoopClock(virtual: nil)

    public var now: Instant { virtual?.now ?? ContinuousClock.now }

    public var minimumResolution: Duration { .nanoseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        if let virtual {
            try await virtual.sleep(until: deadline)
        } else {
            try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
        }
    }

    /// Runs `body` as `VirtualTime.drive` does; on real time, simply runs it.
    public func drive<T: Sendable, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        if let virtual { return try await virtual.drive(body) }
        return try await body()
    }

    /// Where work that belongs to the bench should run so that virtual time sees it (the clock's own loop);
    /// nil on real time (anywhere will do).
    public var taskExecutor: (any TaskExecutor)? { virtual?.driveExecutor }

    /// True on virtual time.
    public var isVirtual: Bool { virtual != nil }
}
