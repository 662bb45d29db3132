#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes whole files so that a reader — or a run killed half-way — only ever sees the old content or the
/// new content, never a mix: write a temporary file in the same directory, `fsync(2)` it, `rename(2)` it
/// over the target, then `fsync(2)` the directory so the rename itself survives a power cut.
///
/// The temporary file is created mode 0600 (`open(2)` with `O_CREAT | O_EXCL`; the umask may narrow it), so
/// the file is its owner's alone from its first byte: results name devices, addresses and failures of
/// secured links, as private as the captures beside them.
public enum AtomicFile {
    /// The mode every file it writes is created with.
    public static let mode: mode_t = 0o600

    /// Replaces `url` with `data`. Throws `ResultsError` naming the file and the failing system call.
    public static func write(_ data: Data, to url: URL) throws(ResultsError) {
        let directory = url.deletingLastPathComponent().path
        let temporary = "\(directory)/.\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw ResultsError(url.path, "cannot create \(temporary): \(errnoText())") }
        var failure: String?
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                guard let base = raw.baseAddress else { break }
                let written = systemWrite(fd, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = "write: \(errnoText())"
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = "fsync: \(errnoText())" }
        close(fd)
        if failure == nil, rename(temporary, url.path) != 0 { failure = "rename: \(errnoText())" }
        if let failure {
            unlink(temporary)
            throw ResultsError(url.path, "cannot write: \(failure)")
        }
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }

    /// `write(_:to:)` for text, as UTF-8.
    public static func write(_ text: String, to url: URL) throws(ResultsError) {
        try write(Data(text.utf8), to: url)
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// `write(2)`, named apart from `AtomicFile.write`.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
