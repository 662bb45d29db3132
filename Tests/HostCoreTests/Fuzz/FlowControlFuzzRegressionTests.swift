import Testing
@testable import HCIPackets
@testable import HostCore

/// Found by hci-fuzz `host-events` (scripts/fuzz/fuzz --all): LE ACL accounting under a controller that
/// reports packets for links it never had, or repeats a connection (Core v5.4 Vol 4 Part E §4.1.1: the
/// host's free buffers are its total minus the packets sent and not yet reported completed).
@Suite("Fuzz regressions: ACL flow control")
struct FlowControlFuzzRegressionTests {
    /// Number Of Completed Packets for handle 0x0041, never connected, created an entry in the
    /// in-flight table that no disconnection removed (the table grew with every handle a controller named).
    @Test func completedPacketsForAnUnknownHandleAreIgnored() {
        var flow = ACLFlowControl()
        flow.configure(length: 27, count: 6)
        flow.open(handle: 0x0040)
        flow.completed([CompletedPackets(handle: 0x0041, count: 3)])
        #expect(flow.inFlight == [0x0040: 0])
        #expect(flow.availableBuffers == 6)
    }

    /// A second LE Connection Complete for an open handle reset its in-flight count to 0, so the buffers
    /// of the packets then in flight were never given back, not even by the disconnection.
    @Test func aRepeatedConnectionCompleteKeepsPacketsInFlight() {
        var flow = ACLFlowControl()
        flow.configure(length: 27, count: 3)
        flow.open(handle: 0x0040)
        flow.inFlight[0x0040] = 2
        flow.availableBuffers = 1
        flow.open(handle: 0x0040)
        flow.drop(handle: 0x0040, failing: .unknownConnection(handle: 0x0040))
        #expect(flow.availableBuffers == 3)
        #expect(flow.inFlight.isEmpty)
    }
}
