import Foundation
@testable import HILResults
import TestSupport

/// A run the way a bench writes one, for checking report.html's layout: the sample records and the
/// fixture run's records and event stream, plus what stretches a page — many cases, capture paths and test
/// IDs without a space, failure messages of several long lines, loops with hundreds of samples whose
/// percentiles lie within a fraction of a millisecond, unrounded figures (`4726.67494195 ms`), a long
/// command line and bench properties.
enum RealisticAssembly {
    static func make() throws -> Assembly {
        var records = SampleRecords.mixed()
        records += TestRecord.loadAll(in: try Fixtures.url("runs/complete/records")).records
        let accessories = ["thermometer", "heart-rate-sensor-with-a-rather-long-rig-name", "scale"]
        for index in 0..<24 {
            let accessory = accessories[index % accessories.count]
            let test = ["powerOffWhileConnected", "reconnectAfterAdapterReset", "advertiseAfterPowerOn", "connectAndDiscoverAllServicesAndCharacteristics"][index % 4]
            var record = SampleRecords.record(test, accessory: accessory, offset: 10 + Double(index) * 4.72667494195,
                                              timeline: timeline(index), measurements: index % 6 == 0 ? loopMeasurements(seed: index) : [],
                                              properties: properties(index))
            record.arguments = index % 5 == 0 ? ["repeat \(index)", "interval 30 ms", "payload 0x\(String(repeating: "a5", count: 24))"] : []
            record.duration = 4.72667494195 + Double(index) * 0.0123456789
            record.capturePath = "captures/PowerOffTests.\(test).\(accessory)-5c1e07a2\(index)f.btsnoop"
            record.testID = "HILTests.PowerOffTests/\(test)(accessory:interval:payload:)/PowerOffTests.swift:\(100 + index):6"
            switch index {
            case 7:
                record.verdict = .failed
                record.sourceLocation = "Tests/HILTests/Transitions/ReconnectAfterAdapterResetTests.swift:142"
                record.message = """
                awaited LE Connection Complete from C0:48:49:4C:00:21 within 5000.0 ms after HCI_Reset of usb:1-1.4.2/0x2fe3:0x0100/\
                SERIAL-0123456789ABCDEF, observed only advertising reports with RSSI -71 dBm and an LE Connection Complete with \
                status 0x3E Connection Failed to be Established after 4726.67494195 ms
                HCI trace: 01030c00 0e0401030c00 3e13010000400000214c4948c0c0002800000000f4010001 \
                040e0401030c00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff
                """
            case 13:
                record.verdict = .infrastructureError
                record.message = "power switch usb-hub:1-1.4 port 2 did not verify: devices behind the port did not leave within 2000 ms "
                    + "(uhubctl -l 1-1.4 -p 2 -a off exited 1: /usr/sbin/uhubctl: Permission denied on /dev/bus/usb/001/017)"
            case 19:
                record.verdict = .failed
                record.message = "link loss p95 over budget: 1312.4 ms > 1200.0 ms (supervision timeout 1000 ms + margin 200 ms)"
                record.sourceLocation = "StabilityTests.swift:88"
            case 22:
                record.verdict = .skipped
                record.message = "rig has no second adapter (adapter.secondary missing from rigs/lab-bench-with-a-long-name.json)"
            default: break
            }
            records.append(record)
        }
        var context = SampleRecords.context
        context.command = "hil run --rig rigs/lab-bench-with-a-long-name.json --out /var/lib/hil/results/nightly-2026-11-29T02:00:00Z "
            + "--filter 'PowerOffTests|ReconnectAfterAdapterResetTests|StabilityTests' --repeat 3 "
            + "--test-bundle /home/ci/builds/thermo-hil-tests/.build/x86_64-unknown-linux-gnu/debug/ThermoHILTestsPackageTests.xctest"
        return ResultsAssembler.assemble(records: records, run: try Fixtures.run("mixed-verdicts"), context: context)
    }

    /// A bench's properties: a BD_ADDR, a USB path, an unverified switch's long reason.
    static func properties(_ index: Int) -> [String: String] {
        var properties = ["adapter": "usb:1-1.4.2", "controller.bdaddr": "00:1B:DC:0A:0B:\(String(format: "%02X", index))",
                          "controller.version": "Bluetooth 5.4 (0x0D), HCI revision 0x2F3E, LMP subversion 0x2F3E, Nordic Semiconductor ASA (0x0059)"]
        if index % 4 == 1 {
            properties["power.verification"] = "unverified (pdu-outlet-3 off: the switch has \"verify\": \"none\"; "
                + "/usr/local/bin/pdu-control --host 10.0.0.17 --outlet 3 --action off --community-string=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx)"
        }
        return properties
    }

    /// A power cycle, a connection, and sometimes a crowd of instants close together.
    static func timeline(_ index: Int) -> [TimelineEvent] {
        var events = [TimelineEvent(offset: 0, duration: 0.2134567, lane: .power, label: "power off (verified: 1 device left usb 1-1.4.2)"),
                      TimelineEvent(offset: 0.31, lane: .connection, label: "Disconnection Complete 0x08 Connection Timeout"),
                      TimelineEvent(offset: 1.5, duration: 0.75, lane: .power, label: "power on (verified: 1 device came back)"),
                      TimelineEvent(offset: 2.4, lane: .advertising, label: "advertising report from C0:48:49:4C:00:21 RSSI -71"),
                      TimelineEvent(offset: 2.6, duration: 0.0473, lane: .connection, label: "LE Connection Complete handle 0x0040")]
        if index % 3 == 0 {
            events += (0..<6).map { TimelineEvent(offset: 3 + Double($0) * 0.01, lane: .discovery, label: "discovered service 0x180\($0)") }
        }
        if index == 7 { events.append(TimelineEvent(offset: 4.72, lane: .connection, label: "no LE Connection Complete within 5000 ms", isFailure: true)) }
        return events
    }

    /// A stability loop's figures: hundreds of connect latencies in ms with p50, p95 and p99 a fraction of a
    /// millisecond apart next to a budget, a link loss in seconds, a success rate and a ratio.
    static func loopMeasurements(seed: Int) -> [HILResults.Measurement] {
        let connect = (0..<400).map { 4726.2 + Double(($0 * 37 + seed) % 100) / 100 * 0.9 }
        let linkLoss = (0..<120).map { 1.0 + Double(($0 * 13 + seed) % 40) / 1000 }
        return [
            HILResults.Measurement(name: "connect latency", value: 4726.67494195, unit: "ms", budget: 4727.5, samples: connect),
            HILResults.Measurement(name: "link loss after power off (supervision timeout 1000 ms)", value: 1.0184321, unit: "s", budget: 1.2, samples: linkLoss),
            HILResults.Measurement(name: "reconnect success", value: 99.74683544, unit: "%"),
            HILResults.Measurement(name: "reconnects", value: 397, unit: "count"),
            HILResults.Measurement(name: "RSSI spread", value: 0.0123456, unit: "ratio"),
        ]
    }
}
