@testable import SocketServing
@testable import Support
@testable import AirServer
import DeviceControl
import Foundation
import Testing
import TestSupport

/// The control protocol of the served air, in-process and over its control socket, on the air's virtual time
/// (`ServedAirFixture`).
@Suite struct ControlProtocolTests {
    @Test(arguments: [
        ("", ControlRequest.ping),
        ("status", .status),
        ("  power thermometer off  ", .power(accessory: "thermometer", .off)),
        ("power heart-rate on", .power(accessory: "heart-rate", .on)),
        ("power x status\r", .power(accessory: "x", .status)),
        ("quit", .quit),
    ])
    func parses(line: String, request: ControlRequest) throws {
        #expect(try ControlRequest.parse(line.trimmingCharacters(in: .newlines)).get() == request)
    }

    @Test(arguments: ["power thermometer", "power thermometer sideways", "status now", "reboot", "POWER thermometer off"])
    func rejects(line: String) {
        guard case .failure(.error) = ControlRequest.parse(line) else {
            Issue.record("'\(line)' was accepted")
            return
        }
    }

    @Test func answersUnknownAccessoryUnknownCommandAndStatus() async throws {
        try await ServedAirFixture.with { air in
            #expect(await air.server.answer("power toaster off") == "error: no simulated accessory named 'toaster' (the rig's: heart-rate, thermometer)")
            #expect(await air.server.answer("reboot").hasPrefix("error: unknown command 'reboot'"))
            #expect(await air.server.answer("status") == "ok accessories heart-rate=on thermometer=on; connections 0")
            #expect(await air.server.answer("power thermometer off") == "ok thermometer off")
            #expect(await air.server.answer("power thermometer off") == "ok thermometer off (already)")
            #expect(await air.server.answer("power thermometer status") == "ok thermometer off")
            let central = try await air.device()
            let status = await air.server.answer("status")
            #expect(status.hasPrefix("ok accessories heart-rate=on thermometer=off; connections 1 served-1=00:AA:5E:00:00:01@unix:"), "\(status)")
            await central.close()
        }
    }

    /// The control socket as a client of our own uses it: one answer line per request line, in order, on one
    /// connection or many, and an error answered is no reason to stop serving. (The answers are awaited
    /// without deadlines: `hil sim power`'s client, with its wall-clock deadline, is `SimServeControlClientTests`.)
    @Test func theControlSocketAnswersEachLineAndKeepsServingAfterErrors() async throws {
        try await ServedAirFixture.with { air in
            func ask(_ line: String) async throws -> String? {
                let fd = try #require(SocketOptions.connectUnix(air.controlPath))
                defer { _ = SocketOptions.closeDescriptor(fd) }
                #expect(BlockingSocket.write(fd, Array((line + "\n").utf8)))
                return try await offPool { BlockingSocket.readLines(fd, count: 1) }.first
            }
            #expect(try await ask("power toaster on")?.hasPrefix("error: no simulated accessory named 'toaster'") == true)
            #expect(try await ask("power heart-rate off") == "ok heart-rate off")
            #expect(air.server.runtime.accessories["heart-rate"]?.controller.isPoweredOn == false, "the answer came after the power was cut")
            #expect(try await ask("power heart-rate on") == "ok heart-rate on")
            #expect(await air.server.runtime.accessories["heart-rate"]?.isRunning == true, "the answer came after the firmware booted")
            // Several lines on one connection: one answer each, in order.
            let fd = try #require(SocketOptions.connectUnix(air.controlPath))
            defer { _ = SocketOptions.closeDescriptor(fd) }
            #expect(BlockingSocket.write(fd, Array("status\nbogus\npower thermometer status\n".utf8)))
            let lines = try await offPool { BlockingSocket.readLines(fd, count: 3) }
            #expect(lines.count == 3)
            #expect(lines.first?.hasPrefix("ok accessories") == true)
            #expect(lines.dropFirst().first?.hasPrefix("error: unknown command 'bogus'") == true)
            #expect(lines.last == "ok thermometer on")
        }
    }

    /// Nothing listens: the client's connect fails at once (before its deadline is even read).
    @Test func nothingListeningIsAnInfrastructureErrorNotAUsageOne() async throws {
        await #expect { try await offPool { try SimServeControlClient.request("status", to: .unix(path: "/tmp/hil-no-such-air.ctl"), timeout: .seconds(1)) } } throws: { error in
            guard let error = error as? ServeError else { return false }
            return !error.isUsage && error.description.contains("no served air listens there")
        }
    }

    /// An accessory's power follows a USB device in sysfs, looked at every `PowerFollow.pollInterval` of the
    /// air's clock: it is powered (and booted) at the first look after the device appears, off at the first
    /// look after it leaves — exactly then.
    @Test func powerFollowsTheUSBDevicesPresenceInSysfs() async throws {
        let sysfs = URL(fileURLWithPath: "/tmp/hil-sysfs-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: sysfs) }
        let device = sysfs.appendingPathComponent("bus/usb/devices/1-1.2")
        func plug() throws {
            try FileManager.default.createDirectory(at: device, withIntermediateDirectories: true)
            try Data("1d6b\n".utf8).write(to: device.appendingPathComponent("idVendor"))
            try Data("0104\n".utf8).write(to: device.appendingPathComponent("idProduct"))
        }
        func unplug() throws { try FileManager.default.removeItem(at: device) }
        // Absent at start: the accessory starts unpowered; the other one is powered as usual.
        let follow = try PowerFollow(parsing: "thermometer=1-1.2")
        try await ServedAirFixture.with(powerFollows: [follow], sysfs: SysfsRoot(path: sysfs.path)) { air in
            // The server started its watcher just now: its looks come every poll interval from here.
            let started = air.clock.now
            let thermometer = try #require(air.server.runtime.accessories["thermometer"])
            let boot = Duration.milliseconds(Int64(try #require(air.rig.accessory(named: "thermometer")?.simulated?.bootDelayMilliseconds)))
            #expect(!thermometer.controller.isPoweredOn)
            #expect(air.server.runtime.accessories["heart-rate"]?.controller.isPoweredOn == true)
            try plug()
            let appeared = try #require(await air.log.line { $0.contains("USB device 1-1.2 appeared: ok thermometer on") }.at)
            #expect(appeared == started + PowerFollow.pollInterval + boot, "powered and booted at the first look, then its boot delay")
            #expect(await thermometer.isRunning)
            try unplug()
            let left = try #require(await air.log.line { $0.contains("USB device 1-1.2 left: ok thermometer off") }.at)
            // The watcher looks again a poll interval after it acted on the last change.
            #expect(appeared.duration(to: left) == PowerFollow.pollInterval, "off at the next look")
            #expect(!thermometer.controller.isPoweredOn)
        }
    }

    /// Two accessories following two devices from the one watcher: each is powered at the first look after its
    /// own device appears, and a device that leaves powers off its accessory alone.
    @Test func eachAccessoryFollowsItsOwnDevice() async throws {
        let sysfs = URL(fileURLWithPath: "/tmp/hil-sysfs-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: sysfs) }
        func plug(_ location: String) throws {
            let device = sysfs.appendingPathComponent("bus/usb/devices/\(location)")
            try FileManager.default.createDirectory(at: device, withIntermediateDirectories: true)
            try Data("0403\n".utf8).write(to: device.appendingPathComponent("idVendor"))
        }
        let follows = [try PowerFollow(parsing: "thermometer=1-1.1"), try PowerFollow(parsing: "heart-rate=1-1.2")]
        try await ServedAirFixture.with(powerFollows: follows, sysfs: SysfsRoot(path: sysfs.path)) { air in
            let thermometer = try #require(air.server.runtime.accessories["thermometer"])
            let heartRate = try #require(air.server.runtime.accessories["heart-rate"])
            #expect(!thermometer.controller.isPoweredOn && !heartRate.controller.isPoweredOn)
            try plug("1-1.2")
            _ = try #require(await air.log.line { $0.contains("USB device 1-1.2 appeared: ok heart-rate on") }.at)
            #expect(heartRate.controller.isPoweredOn)
            #expect(!thermometer.controller.isPoweredOn, "its device is still absent")
            try plug("1-1.1")
            _ = try #require(await air.log.line { $0.contains("USB device 1-1.1 appeared: ok thermometer on") }.at)
            try FileManager.default.removeItem(at: sysfs.appendingPathComponent("bus/usb/devices/1-1.2"))
            _ = try #require(await air.log.line { $0.contains("USB device 1-1.2 left: ok heart-rate off") }.at)
            #expect(!heartRate.controller.isPoweredOn)
            #expect(thermometer.controller.isPoweredOn, "its device stayed")
        }
    }

    @Test(arguments: ["thermometer", "=1-1.2", "thermometer=", "thermometer=1", "thermometer=1-1.2/../../etc", "thermometer=usb1"])
    func rejectsBadPowerFollows(text: String) {
        #expect(throws: ServeError.self) { try PowerFollow(parsing: text) }
    }
}
