// Running a target's async work to the end from libFuzzer's synchronous callback, on virtual time.
import Dispatch
import EventLoops

/// One event loop on one virtual clock for every input of the process: a host, its transport and the
/// harness's operations all run on it, and when they all wait, time jumps to the next deadline, so a
/// 30 s ATT transaction timeout costs nothing. `run` blocks the calling thread until the body ends.
enum VirtualDrive {
    private static let world: (time: VirtualTime, loop: EventLoop)? = {
        let time = VirtualTime()
        guard let loop = try? EventLoop(label: "hci-fuzz", clock: time.clock) else { return nil }
        time.drive(on: loop)
        return (time, loop)
    }()

    /// The loop hosts and clients of the stateful targets run on.
    static var loop: EventLoop? { world?.loop }
    static var clock: LoopClock { world?.time.clock ?? .real }

    /// Runs `body` on the virtual clock's loop (time stands still while it computes and jumps while it
    /// waits) and returns its result; nil when no loop could be started.
    static func run<T: Sendable>(_ body: @escaping @Sendable (EventLoop) async -> T) -> T? {
        guard let world else { return nil }
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        // Started on the loop itself: no hop through the global pool on the way in or out.
        Task(executorPreference: world.loop) {
            let value = await world.time.drive { await body(world.loop) }
            box.set(value)
            done.signal()
        }
        done.wait()
        return box.get()
    }

    /// Sleeps `duration` on the virtual clock (a jump when nothing else runs).
    static func sleep(_ duration: Duration) async {
        guard let world else { return }
        try? await world.time.sleep(until: world.time.now.advanced(by: duration))
    }

    /// Sleeps `duration`, first adding it to `budget`, the time a target allows itself to settle.
    static func pause(_ duration: Duration, budget: inout Duration) async {
        budget += duration
        await sleep(duration)
    }
}
