import Support
import EventLoops
// How a bond store waits for its lock and reaches the disk.

/// How an `AdapterBondFile` waits for the store's lock and which calls reach the disk: real time, a 10 s
/// deadline and the system's calls in production; a test's clock and a file system it controls in a test.
public struct BondStoreOptions: Sendable {
    /// The clock the wait for the lock keeps its deadline (and its pauses between tries) on.
    public var clock: LoopClock
    /// How long a change waits for another writer to finish before it fails (`BondStoreError.Kind.lockTimedOut`).
    public var lockTimeout: Duration
    /// The file operations.
    public var fileSystem: any FileSystemCalls

    public init(clock: LoopClock = .real, lockTimeout: Duration = .seconds(10), fileSystem: any FileSystemCalls = SystemFileSystemCalls()) {
        self.clock = clock
        self.lockTimeout = lockTimeout
        self.fileSystem = fileSystem
    }
}
