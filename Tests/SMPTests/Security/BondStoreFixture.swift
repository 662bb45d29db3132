@testable import Support
import Foundation
@testable import HCIPackets
@testable import EventLoops
@testable import SMP
import TestSupport

/// What the bond store tests share: a scratch store directory, bonds, options on a clock the test owns, and
/// a file system that fails where the test says and records how each file was made.
enum BondStoreFixture {
    static let adapter = "usb:0A12:0001/1"

    /// A bond with `peer` whose keys start at `keyByte`.
    static func bond(_ peer: BDAddress, keyByte: UInt8 = 0x20) -> Bond {
        Bond(peerAddress: peer, peerAddressType: .random, peerIdentityResolvingKey: Array(0x01...0x10),
             longTermKey: LongTermKey(key: Array(keyByte..<keyByte + 16), ediv: 0x1234, random: 0x0102_0304_0506_0708),
             localLongTermKey: LongTermKey(key: Array(0x40...0x4F), ediv: 0xBEEF, random: 0xFFFF_0000_FFFF_0000),
             keySize: 16, authenticated: true, secureConnections: false, method: "passkey")
    }

    /// The `index`-th of a writer's bonds: peers differ in every (writer, index).
    static func bond(writer: Int, index: Int) -> Bond {
        bond(BDAddress(0xC0_00_00_00_00_00 | UInt64(writer) << 16 | UInt64(index)))
    }

    /// Options whose lock waits are on `clock` (a stepped clock nobody advances, unless a test does).
    static func options(clock: LoopClock = VirtualTime.stepped().clock, lockTimeout: Duration = .seconds(10),
                        fileSystem: any FileSystemCalls = SystemFileSystemCalls()) -> BondStoreOptions {
        BondStoreOptions(clock: clock, lockTimeout: lockTimeout, fileSystem: fileSystem)
    }

    /// Runs `body` with a fresh, empty directory, removed afterwards.
    @discardableResult
    static func withDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
        let directory = try TemporaryDirectory.make("bonds")
        defer { TemporaryDirectory.remove(directory) }
        return try await body(directory.path)
    }

    /// The bonds in the file at `path` as a fresh reader sees them.
    static func bondsOnDisk(_ path: String) throws -> [Bond] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONDecoder().decode(BondFileDisk.Contents.self, from: data).bonds
    }

    /// The permission bits of the file at `path`.
    static func mode(_ path: String) -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0 }
        return status.st_mode & 0o777
    }
}
