#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Support
import Testing
import TestSupport

/// Signals through the pipe, as the kernel delivers them to this process on real time: each one sent reaches the
/// callback, none lost however close together. SIGUSR2 is this test's alone in the test process (nothing else
/// handles it). Sent to the process with kill(2), as `kill` sends SIGTERM to a server: a thread-directed raise(3)
/// would wait for ever on a Swift concurrency thread, which blocks signals. The first is sent the instant the
/// handler is installed: with a Dispatch signal source (SIG_IGN, the source, `resume()`) a signal sent so was
/// lost every time in a program of this stop's review (26 of 26 realtime signals), as Dispatch registers the
/// source later, on its manager thread.
@Suite(.tags(.peer), .timeLimit(.minutes(1))) struct SignalPipeTests {
    @Test("Signals sent the instant the handler is installed reach the stream, 100 of them back to back")
    func everySignalSentArrives() async {
        let (numbers, sink) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .unbounded)
        SignalPipe.handle([SIGUSR2]) { sink.yield($0) }
        var received = 0
        for _ in 0..<100 {
            kill(getpid(), SIGUSR2)
            // One at a time: signals of one number that are pending together are delivered once.
            for await number in numbers {
                #expect(number == SIGUSR2)
                received += 1
                break
            }
        }
        #expect(received == 100)
    }
}
