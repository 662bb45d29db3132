import EventLoops

/// Runs `body` on a fresh virtual clock (`VirtualTime`): while anything of the test computes on the
/// clock's loops time stands still, and when every loop waits it jumps to the earliest deadline. A 30 s
/// timeout costs nothing and fires at exactly 30 s of `clock`, however loaded the machine.
///
/// Everything whose time matters must run on the clock's loops: event loops made with `clock`, actors
/// whose executor is such a loop, tasks started with `Task(executorPreference: clock.taskExecutor)`. Work
/// on the global pool or another thread is invisible to the clock, which may jump while it runs; for
/// code that waits on such work use `withSteppedTime`.
public func withVirtualTime<T: Sendable>(_ body: (LoopClock) async throws -> T) async throws -> T {
    let time = VirtualTime()
    defer { time.shutdown() }
    return try await time.drive { () async throws -> T in try await body(time.clock) }
}

/// Runs `body` with a stepped clock (`VirtualTime.stepped()`): time never moves unless the test calls
/// `time.advance(by:)`, which fires the loops' timers due by then and returns when they have run. For
/// code that waits on something outside the clock's loops (a thread, a socket's far end, a child process),
/// so that only the test decides when a deadline comes.
public func withSteppedTime<T: Sendable>(_ body: (VirtualTime) async throws -> T) async throws -> T {
    let time = VirtualTime.stepped()
    defer { time.shutdown() }
    return try await body(time)
}
