import Testing

/// What a test needs besides its own process. A test with none of these tags is a unit test: no peer, no
/// child process, no wall clock (its time is a clock it steps or a virtual one), so it is deterministic and
/// runs in parallel with any other, on any machine, however loaded. A tag on a suite is its every test's.
///
/// `scripts/test` reads these declarations from Swift Testing's own listing (`scripts/checks/test-kinds`) and runs
/// each kind where it can: `scripts/test --unit` the unit tests alone; the full run every kind, Rootcanal's
/// inside its network namespace. `scripts/checks/test-kinds check` fails a unit test's file that reads the wall
/// clock or starts a process.
extension Tag {
    /// A real peer we did not write, on real time: BlueZ's btvirt, Bumble, a labgrid coordinator, Chromium,
    /// a server of ours on a socket that another process uses, or the kernel's own timers and descriptors on
    /// real time (an event loop's timerfd, virtual time measured against the wall clock). Its waits are on the
    /// wall clock, with bounds that say why they are that wide.
    @Tag public static var peer: Self
    /// Starts child processes (`hil`, `python3`, `tshark`, `sh`, `flock`) and waits for them on real time.
    @Tag public static var process: Self
    /// Needs Android's Rootcanal: runs only inside its network namespace (`scripts/peers/rootcanal exec`),
    /// where HIL_ROOTCANAL names it.
    @Tag public static var rootcanal: Self
    /// Builds and tests a package with SwiftPM: minutes of compilation, run on their own.
    @Tag public static var endToEnd: Self
}
