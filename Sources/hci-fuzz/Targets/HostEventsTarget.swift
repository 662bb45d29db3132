// host-events: the host's event dispatch, command flow control and ACL credits.
import HCIPackets
import EventLoops
import HostCore

/// An `HCIHost` initialized on an in-memory controller (byte 0: its LE ACL buffers, length 27 or 251,
/// 1-8 packets), then a script of steps, each one byte picking what happens next: a fuzzed event or ACL
/// packet from the controller, an LE Connection Complete, a Disconnection Complete or a Number Of
/// Completed Packets for one of two handles, the host sending ACL data or a command, the controller
/// answering the last command with fuzzed return parameters, the host waiting for its ACL data to
/// complete, or time passing. Then every link drops.
///
/// Checked: no trap; every host call ends (with a result or an error) by its deadline on virtual time;
/// once all have ended and the links are gone, the host holds no command, waiter, queued or in-flight
/// ACL packet, and all LE ACL buffers are free again.
enum HostEventsTarget {
    static let target = FuzzTarget(name: "host-events", summary: "host event dispatch, command credits, ACL flow control and disconnections", run: run)
    static let handles: [UInt16] = [0x0040, 0x0041]

    static func run(_ bytes: [UInt8]) -> Int {
        VirtualDrive.run { loop in await drive(bytes, loop: loop) } ?? 0
    }

    private static func drive(_ bytes: [UInt8], loop: EventLoop) async -> Int {
        var input = FuzzInput(bytes)
        let setup = input.byte()
        let controller = FuzzController(leBufferLength: setup & 0x08 == 0 ? 27 : 251, leBufferCount: 1 + (setup & 0x07))
        let transport = FuzzTransport(loop: loop, script: controller.answer)
        guard let host = try? HCIHost(transport: transport), (try? await host.initialize()) != nil else {
            Harness.check(false, "the host does not initialize on the fuzz controller")
            return 0
        }
        let started = loop.now
        var budget = Duration.seconds(10)
        var touched = 0
        await withTaskGroup(of: Int.self) { group in
            var steps = 0
            while !input.isAtEnd, steps < 256 {
                steps += 1
                let handle = handles[Int(input.byte() & 1)]
                switch input.pick(10) {
                case 0:
                    transport.deliver(.event(HCIEventPacket(code: input.byte(), parameters: input.chunk())))
                case 1:
                    let control = input.byte()
                    let boundary = ACLDataPacket.Boundary(rawValue: control & 0x03) ?? .continuing
                    transport.deliver(.aclData(ACLDataPacket(handle: handle, boundary: boundary, data: input.chunk())))
                case 2:
                    transport.deliver(FuzzController.connectionComplete(handle: handle, role: input.byte() & 1))
                case 3:
                    transport.deliver(FuzzController.disconnectionComplete(handle: handle, status: input.byte() & 0x01))
                case 4:
                    transport.deliver(FuzzController.completedPackets(handle: handle, count: UInt16(input.byte() & 0x0F)))
                case 5:
                    let pdu = [UInt8](repeating: 0xA5, count: Int(input.byte()) * 2)
                    let timeout = Duration.seconds(1 + Int(input.byte() & 3))
                    group.addTask { (try? await host.sendACL(handle: handle, pdu: pdu, timeout: timeout)) == nil ? 1 : 2 }
                case 6:
                    let which = input.byte()
                    group.addTask { await command(which, handle: handle, on: host) }
                case 7:
                    let commands = transport.sent.compactMap { if case .command(let command) = $0 { command } else { nil } }
                    if let last = commands.last {
                        let status = input.byte() & 0x01
                        transport.deliver(h4: FuzzController.commandComplete(last.opcode, status: status, credits: input.byte() & 0x03,
                                                                             input.chunk()))
                    }
                case 8:
                    group.addTask { await host.waitUntilACLCompleted(handle: handle, timeout: .seconds(2)) ? 3 : 4 }
                default:
                    await VirtualDrive.pause(.milliseconds(10 * Int(input.byte())), budget: &budget)
                }
                await Task.yield()
            }
            await Harness.disconnectAll(host, on: transport)
            for await result in group { touched &+= result }
        }
        await Harness.checkSettled(host, started: started, loop: loop, budget: budget)
        touched &+= await host.anomalies.count
        await host.close()
        return touched
    }

    /// One command the host sends on a link, as a role would; 1 when it failed, 2 when it succeeded.
    private static func command(_ which: UInt8, handle: UInt16, on host: HCIHost) async -> Int {
        let timeout = Duration.seconds(1)
        do {
            switch which % 4 {
            case 0: try await host.send(LEReadRemoteFeatures(handle: handle), timeout: timeout)
            case 1: _ = try await host.send(LERand(), timeout: timeout)
            case 2: _ = try await host.send(LEEncrypt(key: [UInt8](repeating: 1, count: 16), plaintext: [UInt8](repeating: 2, count: 16)), timeout: timeout)
            default: _ = try await host.send(ReadRemoteVersionInformation(handle: handle), timeout: timeout)
            }
            return 2
        } catch {
            return 1
        }
    }
}
