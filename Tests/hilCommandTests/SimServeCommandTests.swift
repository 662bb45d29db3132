import Foundation
@testable import hil
import Testing
import TestSupport

/// `hil sim serve` and `hil sim power` as a user runs them: the real `hil` binary as a child process,
/// with Google's Bumble (an independent host stack) as the central on the served air.
@Suite(.serialized, .tags(.process)) struct SimServeCommandTests {
    /// The shipped simulated rig's budgets, read as plain JSON (milliseconds).
    struct Budgets {
        let supervisionTimeout: Duration
        let linkLossMargin: Duration
        let advertisingAfterPowerOn: Duration

        static func load() throws -> Budgets {
            let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("rigs/simulated.json"))
            let rig = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let budgets = try #require(rig["budgets"] as? [String: Any])
            func milliseconds(_ key: String) throws -> Duration {
                .milliseconds(Int64(try #require(budgets[key] as? Double, "rigs/simulated.json budgets.\(key)")))
            }
            return Budgets(supervisionTimeout: try milliseconds("supervisionTimeoutMilliseconds"),
                           linkLossMargin: try milliseconds("linkLossMarginMilliseconds"),
                           advertisingAfterPowerOn: try milliseconds("advertisingAfterPowerOnMilliseconds"))
        }
    }

    static func scratch() throws -> URL {
        let url = URL(fileURLWithPath: "/tmp/hil-sim-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Starts `hil sim serve` on the shipped rig and waits for its ready line: 10 s for the process's start-up
    /// and the accessories' boot on a loaded 2-core machine.
    static func serve(_ directory: URL, extra: [String] = []) async throws -> ChildProgram {
        let air = directory.appendingPathComponent("air").path
        let control = directory.appendingPathComponent("ctl").path
        let server = try ChildProgram(try ChildProgram.hilBinary(),
                                      ["sim", "serve", "--rig", "rigs/simulated.json", "--listen", "unix:\(air)", "--control", "unix:\(control)"] + extra,
                                      name: "hil sim serve")
        guard let ready = await server.line(within: .seconds(10)) else {
            await server.stop()
            throw ChildProgramError("hil sim serve printed no ready line within 10 s; stderr: \(server.standardError)")
        }
        #expect(ready.text == "serving 3 controllers' air on unix:\(air) (control unix:\(control))")
        return server
    }

    /// The Python of the venv scripts/peers/venv makes (bumble 0.0.236); creates it when missing.
    static func bumblePython() async throws -> String {
        let python = repositoryRoot.appendingPathComponent(".venv/bin/python").path
        if !FileManager.default.isExecutableFile(atPath: python) {
            // Five minutes: pip installs Bumble, Rootcanal and labgrid into a fresh venv.
            let made = try await runToCompletion(repositoryRoot.appendingPathComponent("scripts/peers/venv").path, [],
                                                 timeout: .seconds(300))
            guard made.status == 0 else {
                throw ChildProgramError("the Bumble venv is missing and scripts/peers/venv failed (exit \(String(describing: made.status))): \(made.error)")
            }
        }
        return python
    }

    // MARK: The key proof

    @Test(.tags(.peer)) func aBumbleCentralSeesConnectionTimeoutAfterTheSupervisionTimeoutWhenTheAccessoryIsPoweredOff() async throws {
        let budgets = try Budgets.load()
        let python = try await Self.bumblePython()
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await Self.serve(directory)
        let script = repositoryRoot.appendingPathComponent("scripts/peers/bumble-link-loss.py").path
        let supervisionMilliseconds = Int(budgets.supervisionTimeout.components.seconds * 1000
            + budgets.supervisionTimeout.components.attoseconds / 1_000_000_000_000_000)
        var bumble: ChildProgram?
        do {
            let central = try ChildProgram(python, [script, "unix:\(directory.appendingPathComponent("air").path)", "--name", "HIL-Thermo",
                                                   "--supervision-timeout", String(supervisionMilliseconds), "--wait", "15"], name: "bumble")
            bumble = central
            // 20 s: Bumble's Python start-up (seconds on a loaded 2-core machine), its scan and its connection.
            let connected = try #require(await central.line(within: .seconds(20)) { $0.hasPrefix("CONNECTED ") },
                                         "Bumble did not connect: \(central.standardOutput) \(central.standardError.suffix(5))")
            #expect(connected.text.hasPrefix("CONNECTED C0:48:49:4C:00:02"), "Bumble connected to the rig's thermometer: \(connected.text)")
            #expect(connected.text.hasSuffix("supervision_timeout_ms=\(supervisionMilliseconds).0"), "\(connected.text)")

            // Power off on standard input. The power goes off between the request and its acknowledgement:
            // the supervision timeout is counted from the request, the margin to see it from the answer.
            let requested = ContinuousClock.now
            try server.send("power thermometer off")
            // 5 s for the answer to one line (the power-off itself is immediate) on a loaded machine.
            let acknowledged = try #require(await server.line(within: .seconds(5)) { $0.hasPrefix("ok ") || $0.hasPrefix("error") || $0.hasPrefix("failed") })
            #expect(acknowledged.text == "ok thermometer off")
            // The rig's link-loss budget, and a second for Bumble to print it: the wait for the event, not the assertion.
            let disconnected = try #require(await central.line(within: budgets.supervisionTimeout + budgets.linkLossMargin + .seconds(1)) {
                $0.hasPrefix("DISCONNECTED") || $0.hasPrefix("NO_DISCONNECTION")
            }, "Bumble saw no Disconnection Complete: \(central.standardOutput)")
            #expect(disconnected.text == "DISCONNECTED reason=0x08", "Connection Timeout, as a real radio reports it")
            let sinceRequest = requested.duration(to: disconnected.at)
            let sinceAnswer = acknowledged.at.duration(to: disconnected.at)
            #expect(sinceRequest >= budgets.supervisionTimeout, "reported \(sinceRequest) after the power-off was requested: before the supervision timeout")
            // The rig's own margin (linkLossMarginMilliseconds) for a radio's report on real time: what the suites allow a real bench.
            #expect(sinceAnswer <= budgets.supervisionTimeout + budgets.linkLossMargin, "reported \(sinceAnswer) after the power-off")

            // Power on through the control socket's client: Bumble finds it advertising again.
            let poweringOn = ContinuousClock.now
            let on = try await runToCompletion(try ChildProgram.hilBinary(),
                                               ["sim", "power", "--control", "unix:\(directory.appendingPathComponent("ctl").path)", "thermometer", "on"])
            #expect(on.status == 0)
            #expect(on.output == "ok thermometer on")
            // The rig's budget for advertising after power-on, plus the `hil sim power` process and Bumble's scan report.
            let again = try #require(await central.line(within: budgets.advertisingAfterPowerOn + .seconds(2)) {
                $0.hasPrefix("FOUND_AGAIN") || $0.hasPrefix("NOT_FOUND_AGAIN")
            }, "\(central.standardOutput)")
            #expect(again.text == "FOUND_AGAIN C0:48:49:4C:00:02")
            #expect(again.at > poweringOn, "found only after it was powered on")
            // Plus a second for the `hil sim power` process that asked for it, on a loaded machine.
            #expect(poweringOn.duration(to: again.at) <= budgets.advertisingAfterPowerOn + .seconds(1), "found \(poweringOn.duration(to: again.at)) after power-on was asked for")
            // Bumble exits once it has reported: 10 s for its Python shutdown on a loaded machine.
            #expect(await central.exitStatus(within: .seconds(10)) == 0)
        } catch {
            await bumble?.stop()
            await server.stop()
            throw error
        }
        await bumble?.stop()
        #expect(await server.signal(SIGTERM) == 0, "SIGTERM ends the server with exit 0")
        await server.drain()
        #expect(server.standardError.contains { $0.contains("dropped") } == false, "\(server.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("air").path), "the socket file is removed")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("ctl").path), "the control socket file is removed")
    }

    // MARK: Standard input, control client, exit statuses

    @Test func endOfStandardInputKeepsServingUntilQuit() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await Self.serve(directory)
        let control = "unix:\(directory.appendingPathComponent("ctl").path)"
        do {
            // 5 s for each answer line from the server process, on a loaded machine.
            try server.send("status")
            #expect(await server.line(within: .seconds(5))?.text == "ok accessories heart-rate=on thermometer=on; connections 0")
            try server.send("power toaster off")
            #expect(await server.line(within: .seconds(5))?.text.hasPrefix("error: no simulated accessory named 'toaster'") == true)
            try server.send("frobnicate")
            #expect(await server.line(within: .seconds(5))?.text.hasPrefix("error: unknown command 'frobnicate'") == true)
            try server.closeInput()
            // The server says when its standard input ends; it keeps serving (it would have exited by then otherwise).
            let ended = await server.until(within: .seconds(5)) { server.standardError.contains("hil sim serve: standard input ended; still serving until quit, SIGTERM or SIGINT") }
            #expect(ended, "no line on standard error about the end of standard input: \(server.standardError)")
            #expect(server.isRunning, "end of standard input does not stop the server")
            let status = try await runToCompletion(try ChildProgram.hilBinary(), ["sim", "power", "--control", control, "heart-rate", "status"])
            #expect(status.status == 0)
            #expect(status.output == "ok heart-rate on")
            let unknown = try await runToCompletion(try ChildProgram.hilBinary(), ["sim", "power", "--control", control, "toaster", "off"])
            #expect(unknown.status == 3, "an unknown accessory is a usage error")
            #expect(unknown.error.hasPrefix("hil sim power: no simulated accessory named 'toaster'"))
            #expect(!unknown.error.contains("\n"), "one line: \(unknown.error)")
        } catch {
            await server.stop()
            throw error
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = directory.appendingPathComponent("ctl").path
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (index, byte) in path.utf8.enumerated() { raw[index] = byte } }
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        #expect(connected == 0)
        _ = "quit\n".withCString { write(fd, $0, 5) }
        // 5 s for the server to shut its bench down and exit, on a loaded machine.
        let status = await server.exitStatus(within: .seconds(5))
        close(fd)
        if status == nil { await server.stop() }
        #expect(status == 0, "quit on the control socket ends the server with exit 0")
        await server.drain()
        #expect(server.standardError.last == "hil sim serve: stopped (quit)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(arguments: [
        ["sim", "serve", "--listen", "tcp:0.0.0.0:6402"],
        ["sim", "serve", "--listen", "tcp:192.168.1.10:6402"],
        ["sim", "serve"],
        ["sim", "serve", "--listen", "unix:/tmp/x", "--rig", "/nonexistent/rig.json"],
        ["sim", "serve", "--listen", "unix:/tmp/x", "--power-follows", "toaster=1-1.2"],
        ["sim", "serve", "--listen", "unix:/tmp/x", "--power-follows", "thermometer=../etc"],
        ["sim", "serve", "--listen-controller", "thermometer=unix:/tmp/x"],
        ["sim", "serve", "--listen", "unix:/tmp/x", "--control", "tcp:0.0.0.0:6403"],
        ["sim", "serve", "--listen", "unix:/tmp/x", "--control", "tcp:192.168.1.10:6403"],
        ["sim", "power", "thermometer", "off"],
        ["sim", "power", "--control", "unix:/tmp/x", "thermometer", "sideways"],
        ["sim", "reboot"],
    ])
    func badCommandLinesExit3WithOneLine(words: [String]) async throws {
        // 10 s: a refusal is at once; the bound is a process's start-up on a loaded machine.
        let result = try await runToCompletion(try ChildProgram.hilBinary(), words, timeout: .seconds(10))
        #expect(result.status == 3, "\(words): \(result.error)")
        #expect(result.error.split(separator: "\n").count == 1, "one line on stderr: \(result.error)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/x"), "nothing was left listening")
    }

    @Test func powerWithNothingListeningIsAnInfrastructureError() async throws {
        let result = try await runToCompletion(try ChildProgram.hilBinary(), ["sim", "power", "--control", "unix:/tmp/hil-no-air.ctl", "thermometer", "off"])
        #expect(result.status == 2)
        #expect(result.error.contains("no served air listens there"))
    }
}
