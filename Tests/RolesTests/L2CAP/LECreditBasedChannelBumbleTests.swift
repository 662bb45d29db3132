import Testing
import TestSupport
@testable import HCIPackets
@testable import HCITransports
@testable import HostCore
@testable import Roles

/// Our LE credit-based channel against Bumble's own (`bumble.l2cap.LeCreditBasedChannel`): Bumble's controllers
/// on a local link, one served to our host over TCP, the other under a Bumble device that echoes every SDU on
/// its channel server (scripts/peers/bumble-coc-echo.py).
///
/// A real peer on real time (`.peer`): a Python child process; its bounds are on the wall clock and say why
/// they are that wide.
@Suite(.serialized, .tags(.peer)) struct LECreditBasedChannelBumbleTests {
    @Test func bumbleEchoesAnSDULargerThanEitherMPS() async throws {
        // Bumble's MPS 64 and ours 100: the 300-octet SDU goes as 5 K-frames and comes back as 4.
        let echo = try await BumblePeer.start("bumble-coc-echo.py", ["--name", "HIL-CoC-Bumble", "--spsm", "0x0080",
                                                                     "--mtu", "512", "--mps", "64", "--credits", "4"],
                                             what: "the Bumble CoC echo")
        do {
            let moniker = try TransportMoniker(parsing: "tcp-client:127.0.0.1:\(echo.address)")
            let central = LEDevice(host: try HCIHost(transport: moniker.openStreamTransport()))
            // 5 s each: Bumble advertises every 30 ms and answers at once; the rest is room for Python on a
            // loaded 2-core machine.
            let link = try await central.connect(matching: ScanFilter(name: "HIL-CoC-Bumble"), scanTimeout: .seconds(5), timeout: .seconds(5))
            let channel = try await link.openChannel(spsm: 0x0080, mtu: 512, mps: 100, credits: 4, timeout: .seconds(5))
            #expect(channel.peerMPS == 64 && channel.peerMTU == 512)
            let sdu = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 13 + 1) }
            // Four credits for five K-frames: the send waits for Bumble's Flow Control Credit Ind.
            try await channel.send(sdu, timeout: .seconds(5))
            #expect(try await channel.receive(timeout: .seconds(5)) == sdu)
            try await channel.send([0x42], timeout: .seconds(5))
            #expect(try await channel.receive(timeout: .seconds(5)) == [0x42])
            try await channel.close(timeout: .seconds(5))
            let anomalies = await link.anomalies
            #expect(anomalies.isEmpty, "\(anomalies)")
            _ = try await link.disconnect()
            await central.close()
        } catch {
            await echo.stop()
            throw error
        }
        await echo.stop()
    }
}
