import HCIPackets
import Roles
import Rigs
import Throughput
import HILTesting
import Testing

extension StandardSuites {
    /// Sustained streams in Bumble's bench format for the time the rig declares: the accessory's
    /// notifications to the central, and the central's Write Without Response to the accessory, each reaching
    /// its declared floor of bits per second with no gap in the sequence counter (and, for notifications, a
    /// p95 delay within its budget). The link is first set up as the rig declares (MTU, data length, PHY).
    @Suite(.requiresLink("a notify or write stream", { $0.notify != nil || $0.write != nil })) struct SustainedStreams {
        @Test(.requiresLink("a notify stream", { $0.notify != nil }), arguments: BenchAccessories.linkNames { $0.notify != nil })
        func notificationsReachFloor(accessory: String) async throws {
            let bench = try await HILCase.open(accessory: accessory)
            let declared = try bench.accessoryLink()
            let stream = try #require(declared.notify)
            let link = try await Self.prepare(bench, declared)
            let client = try await BenchClient.find(on: link, notifying: stream.characteristic ?? SpeedService.rx)
            let report = try await client.receive(for: stream.duration, startTimeout: declared.update)
            Self.record(bench, report, stream)
            #expect(report.bitsPerSecond >= stream.floorBitsPerSecond,
                    "notifications carried \(Int(report.bitsPerSecond)) bit/s; the rig's floor is \(Int(stream.floorBitsPerSecond))")
            #expect(report.sequenceGaps == 0, "\(report.sequenceGaps) sequence numbers missing from \(report.packets) packets")
            if let budget = stream.latencyP95 {
                #expect(report.latencyMillisecondsP95 <= budget / .milliseconds(1), "p95 delay \(report.latencyMillisecondsP95) ms")
            }
            try await link.disconnect()
        }

        @Test(.requiresLink("a write stream", { $0.write != nil }), arguments: BenchAccessories.linkNames { $0.write != nil })
        func writesReachFloor(accessory: String) async throws {
            let bench = try await HILCase.open(accessory: accessory)
            let declared = try bench.accessoryLink()
            let stream = try #require(declared.write)
            let link = try await Self.prepare(bench, declared)
            let client = try await BenchClient.find(on: link, writable: stream.characteristic ?? SpeedService.tx)
            let report = try await client.send(for: stream.duration, ackTimeout: declared.update)
            Self.record(bench, report, stream)
            #expect(report.acknowledged == true, "the accessory did not acknowledge the last packet")
            #expect(report.bitsPerSecond >= stream.floorBitsPerSecond,
                    "writes carried \(Int(report.bitsPerSecond)) bit/s; the rig's floor is \(Int(stream.floorBitsPerSecond))")
            try await link.disconnect()
        }

        /// Connects and sets the link up as declared: MTU (else the largest), data length, PHY.
        static func prepare(_ bench: HILCase, _ declared: AccessoryLink) async throws -> LEConnection {
            let link = try await bench.connect(to: try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn))
            let mtu = try await link.exchangeMTU(offering: declared.mtu)
            if let octets = declared.dataLength { try await link.setDataLength(octets: UInt16(octets), timeout: declared.update) }
            if let phy = declared.phy { try await link.setPHY(phy, timeout: declared.update) }
            bench.mark(.connection, "ATT_MTU \(mtu), \(await link.dataLength), \(await link.phy)")
            return link
        }

        static func record(_ bench: HILCase, _ report: ThroughputReport, _ stream: AccessoryLink.Stream) {
            bench.measure("\(report.mode) throughput", value: report.bitsPerSecond, unit: "bit/s")
            bench.measure("\(report.mode) delay p95", value: report.latencyMillisecondsP95, unit: "ms",
                          budget: stream.latencyP95.map { $0 / .milliseconds(1) })
            bench.mark(.connection, "\(report.mode): \(report.bytes) bytes in \(report.seconds) s, \(Int(report.bitsPerSecond)) bit/s")
        }
    }
}
