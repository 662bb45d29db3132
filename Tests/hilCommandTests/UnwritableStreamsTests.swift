import Support
import DeviceControl
import Testing
import TestSupport

/// A command whose standard error or output cannot be written (a redirect onto a full disk: /dev/full
/// answers every write with ENOSPC) still ends with its own exit status: the text is lost, the status is
/// not, and nothing traps. FileHandle's non-throwing write trapped (SIGILL) before.
@Suite(.tags(.process)) struct UnwritableStreamsTests {
    /// Runs `hil ARGUMENTS` with `stream` (1 or 2) redirected to /dev/full.
    static func hil(_ arguments: [String], streamOnFullDisk stream: Int) async throws -> Termination? {
        let script = "exec \"$0\" \"$@\" \(stream)>/dev/full"
        return await runProgramCapturing("/bin/sh", ["-c", script, try ChildProgram.hilBinary()] + arguments).termination
    }

    @Test func aUsageErrorOnAFullStandardErrorStillExits3() async throws {
        let ended = try await Self.hil(["info", "--no-such-option"], streamOnFullDisk: 2)
        #expect(ended == .exited(3), "hil ended \(String(describing: ended))")
    }

    @Test func anUnknownCommandOnAFullStandardErrorStillExits3() async throws {
        let ended = try await Self.hil(["no-such-command"], streamOnFullDisk: 2)
        #expect(ended == .exited(3), "hil ended \(String(describing: ended))")
    }

    @Test func jsonOnAFullStandardOutputDoesNotTrap() async throws {
        // `hil usb --json` writes its tree through FileHandle; with no USB here it is an empty tree or an error,
        // either way a status of the command's own, never a signal.
        let ended = try await Self.hil(["usb", "--json"], streamOnFullDisk: 1)
        guard case .exited = ended else {
            Issue.record("hil usb --json ended \(String(describing: ended))")
            return
        }
    }
}
