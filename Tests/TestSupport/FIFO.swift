import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A named pipe between a test and a child process it started: the child says it reached a point by writing
/// to it (`echo $$ > "$FIFO"`), or waits for the test's word by reading it (`read _ < "$FIFO"`), so the test
/// awaits the event itself instead of polling for a file or sleeping. Opening either end blocks until the
/// other end is opened, so each wait runs on a thread of its own, never on a cooperative one.
public struct FIFO: Sendable {
    public let path: String

    /// Makes the pipe `name` in `directory`.
    public static func make(in directory: URL, named name: String) throws -> FIFO {
        let path = directory.appendingPathComponent(name).path
        guard mkfifo(path, 0o600) == 0 else { throw PeerError("mkfifo \(path): \(String(cString: strerror(errno)))") }
        return FIFO(path: path)
    }

    /// What the other end writes until it closes the pipe: waits for a writer to open it, then reads to the end.
    public func readToEnd() async -> String {
        let path = path
        let bytes = await Self.onThread { () -> [UInt8] in
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return [] }
            defer { close(fd) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 512)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return bytes }
                bytes += buffer.prefix(count)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `text` and closes the pipe: waits for a reader to open it first.
    public func writeAndClose(_ text: String) async {
        let path = path
        await Self.onThread { () -> Void in
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            defer { close(fd) }
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }
    }

    /// Runs `body` on a thread of its own and returns what it returned.
    private static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}
