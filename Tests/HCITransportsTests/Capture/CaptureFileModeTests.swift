import Foundation
import Synchronization
import Testing
@testable import HCIPackets
@testable import EventLoops
@testable import HCITransports

/// A capture file is its owner's alone from its first byte: created by `open(2)` with `O_CREAT | O_EXCL` and
/// mode 0600 — watched at that call, and the file's mode read from the new descriptor before anything is
/// written to it — never created wider and narrowed after.
@Suite struct CaptureFileModeTests {
    /// What the open(2) that made a capture was given, and the mode of the file it made right then.
    final class WatchedOpen: Sendable {
        let seen = Mutex<[(flags: Int32, mode: mode_t, modeAtCreation: UInt32, sizeAtCreation: Int)]>([])

        var open: CaptureFile.Open {
            { [self] path, flags, mode in
                let fd = CaptureFile.systemOpen(path, flags, mode)
                var status = stat()
                if fd >= 0, fstat(fd, &status) == 0 {
                    seen.withLock { $0.append((flags, mode, UInt32(status.st_mode) & 0o7777, Int(status.st_size))) }
                }
                return fd
            }
        }
    }

    static func mode(of path: String) throws -> Int {
        try #require((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue)
    }

    @Test(arguments: [BtsnoopDatalink.h4, .monitor])
    func aCaptureIsCreatedMode0600WithOExcl(datalink: BtsnoopDatalink) throws {
        let path = CapturedRecords.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let watched = WatchedOpen()
        let writer = try BtsnoopWriter(path: path, datalink: datalink, keys: .redacted, opening: watched.open)
        writer.write(.command(HCICommandPacket(opcode: .reset)), received: false, unixMicroseconds: 0)
        writer.close()
        let calls = watched.seen.withLock { $0 }
        try #require(calls.count == 1)
        #expect(calls[0].mode == 0o600)
        #expect(calls[0].flags & (O_CREAT | O_EXCL) == O_CREAT | O_EXCL)
        #expect(calls[0].flags & O_CLOEXEC != 0)
        #expect(calls[0].modeAtCreation == 0o600, "mode at creation \(String(calls[0].modeAtCreation, radix: 8))")
        #expect(calls[0].sizeAtCreation == 0)
        #expect(try Self.mode(of: path) == 0o600)
    }

    /// The public initializers (the ones `hil` and the bench use) make the same file.
    @Test func monitorAndH4CapturesAreMode0600() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hil-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let h4 = directory.appendingPathComponent("h4.btsnoop").path, monitor = directory.appendingPathComponent("monitor.btsnoop").path
        try BtsnoopWriter(path: h4).close()
        try MonitorCapture(path: monitor, clock: VirtualTime.stepped().clock).writer.close()
        #expect(try Self.mode(of: h4) == 0o600)
        #expect(try Self.mode(of: monitor) == 0o600)
    }

    /// A capture written over an older world-readable file is a new file, mode 0600: whoever holds the old one
    /// open reads none of the new capture.
    @Test func aWorldReadableFileInThePlaceIsReplacedNotReused() throws {
        let path = CapturedRecords.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644]))
        let old = try #require(FileHandle(forReadingAtPath: path))
        defer { try? old.close() }
        let writer = try BtsnoopWriter(path: path)
        writer.write(.command(HCICommandPacket(opcode: .reset)), received: false, unixMicroseconds: 0)
        writer.close()
        #expect(try Self.mode(of: path) == 0o600)
        #expect(try old.readToEnd() == Data("old".utf8))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(8) == Data("btsnoop\0".utf8))
    }

    /// A symbolic link in the place is replaced by the capture; what it pointed at is left alone.
    @Test func aSymbolicLinkInThePlaceIsReplacedAndItsTargetUntouched() throws {
        let path = CapturedRecords.temporaryPath(), target = CapturedRecords.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path); try? FileManager.default.removeItem(atPath: target) }
        try Data("target".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        try BtsnoopWriter(path: path).close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("target".utf8))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType == .typeRegular)
        #expect(try Self.mode(of: path) == 0o600)
    }

    /// A directory or FIFO in the place is an error naming it, and is left as it is.
    @Test func aDirectoryOrFIFOInThePlaceIsAnError() throws {
        let directory = CapturedRecords.temporaryPath(), fifo = CapturedRecords.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: directory); try? FileManager.default.removeItem(atPath: fifo) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [(directory, "a directory"), (fifo, "a FIFO")] {
            do {
                _ = try BtsnoopWriter(path: path)
                Issue.record("\(kind) was written over")
            } catch {
                #expect(error.description.contains(path) && error.description.contains("\(kind) is there, not a regular file"), "\(error)")
            }
        }
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory.boolValue)
    }
}
