@testable import AirServer
import DeviceControl
import Foundation
import Testing
import TestSupport

/// The control protocol of the served air, in-process and over its control socket.
@Suite(.serialized) struct ControlProtocolTests {
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
        let air = try await ServedAirFixture.start()
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
        await air.stop()
    }

    @Test func theControlSocketAnswersEachLineAndKeepsServingAfterErrors() async throws {
        let air = try await ServedAirFixture.start()
        let control = ServeAddress.unix(path: air.controlPath)
        #expect(try await offPool { try SimServeControlClient.request("power toaster on", to: control, timeout: .seconds(5)) }.hasPrefix("error: no simulated accessory named 'toaster'"))
        #expect(try await offPool { try SimServeControlClient.request("power heart-rate off", to: control, timeout: .seconds(5)) } == "ok heart-rate off")
        #expect(air.server.runtime.accessories["heart-rate"]?.controller.isPoweredOn == false, "the answer came after the power was cut")
        #expect(try await offPool { try SimServeControlClient.request("power heart-rate on", to: control, timeout: .seconds(5)) } == "ok heart-rate on")
        #expect(await air.server.runtime.accessories["heart-rate"]?.isRunning == true, "the answer came after the firmware booted")
        // Several lines on one connection: one answer each, in order.
        let fd = try #require(SocketOptions.connectUnix(air.controlPath))
        defer { _ = SocketOptions.closeDescriptor(fd) }
        #expect(SocketOptions.writeAll(fd, Array("status\nbogus\npower thermometer status\n".utf8), deadline: .now + .seconds(1)))
        let lines = try await offPool { readLines(fd, count: 3, within: .seconds(5)) }
        #expect(lines.count == 3)
        #expect(lines.first?.hasPrefix("ok accessories") == true)
        #expect(lines.dropFirst().first?.hasPrefix("error: unknown command 'bogus'") == true)
        #expect(lines.last == "ok thermometer on")
        await air.stop()
    }

    @Test func nothingListeningIsAnInfrastructureErrorNotAUsageOne() async throws {
        await #expect { try await offPool { try SimServeControlClient.request("status", to: .unix(path: "/tmp/hil-no-such-air.ctl"), timeout: .seconds(1)) } } throws: { error in
            guard let error = error as? SimServeError else { return false }
            return !error.isUsage && error.description.contains("no served air listens there")
        }
    }

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
        let air = try await ServedAirFixture.start(powerFollows: [follow], sysfs: SysfsRoot(path: sysfs.path))
        let thermometer = try #require(air.server.runtime.accessories["thermometer"])
        #expect(!thermometer.controller.isPoweredOn)
        #expect(air.server.runtime.accessories["heart-rate"]?.controller.isPoweredOn == true)
        try plug()
        #expect(await eventually(within: .seconds(1)) { await thermometer.isRunning }, "powered and booted within 1 s of the device appearing")
        try unplug()
        #expect(await eventually(within: .seconds(1)) { !thermometer.controller.isPoweredOn }, "off within 1 s of the device leaving")
        #expect(await eventually(within: .seconds(1)) { air.log.all.contains { $0.contains("USB device 1-1.2 left: ok thermometer off") } },
                "\(air.log.all)")
        #expect(air.log.all.contains { $0.contains("USB device 1-1.2 appeared: ok thermometer on") }, "\(air.log.all)")
        await air.stop()
    }

    @Test(arguments: ["thermometer", "=1-1.2", "thermometer=", "thermometer=1", "thermometer=1-1.2/../../etc", "thermometer=usb1"])
    func rejectsBadPowerFollows(text: String) {
        #expect(throws: SimServeError.self) { try PowerFollow(parsing: text) }
    }
}

/// Up to `count` lines read from `fd` within `timeout`.
func readLines(_ fd: Int32, count: Int, within timeout: Duration) -> [String] {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 512)
    while received.filter({ $0 == 0x0A }).count < count && ContinuousClock.now < deadline {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, 50)
        let read = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if read > 0 { received.append(contentsOf: buffer[0..<read]) } else if read == 0 { break }
    }
    return String(decoding: received, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
}
