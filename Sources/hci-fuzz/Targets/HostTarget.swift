// host: the stateful target — a host, its roles and a link driven by a fuzzed controller and peer.
import HCIPackets
import EventLoops
import HostCore
import SMP
import Roles

/// An `LEDevice` (GATT server over the fuzz database) on an `HCIHost` on an in-memory controller that
/// answers every command; a link established by a scripted LE Connection Complete (byte 0 picks our
/// role: central through `connect`, or peripheral); then steps, one byte each picking: a peer PDU on
/// ATT, LE signaling or SMP (fuzzed, in one or two ACL fragments), the peer answering our last ATT
/// request as our own server would, a fuzzed controller event, Number Of Completed Packets, an
/// Encryption Change, or a host-side operation (discover, read, write, subscribe, notify, indicate,
/// pair, update parameters, disconnect), or time passing. Then the link drops.
///
/// Checked: no trap; every operation ends (result, error or deadline) within its deadline on virtual
/// time; afterwards the host holds no command, waiter or ACL data, every LE ACL credit is back, and the
/// ended link keeps no waiter and its GATT client no request.
enum HostTarget {
    static let target = FuzzTarget(name: "host", summary: "stateful: host + LEDevice + link, fuzzed controller and peer, host invariants", run: run)
    static let handle: UInt16 = 0x0040
    static let peer = BDAddress(0x00_AA_01_01_00_42)

    static func run(_ bytes: [UInt8]) -> Int {
        VirtualDrive.run { loop in await drive(bytes, loop: loop) } ?? 0
    }

    private static func drive(_ bytes: [UInt8], loop: EventLoop) async -> Int {
        var input = FuzzInput(bytes)
        let setup = input.byte()
        let controller = FuzzController(leBufferLength: 27, leBufferCount: 1 + (setup >> 4 & 0x03), answersEverything: true, connectsAt: handle)
        let transport = FuzzTransport(loop: loop, script: controller.answer)
        guard let database = FuzzDatabase.make(), let host = try? HCIHost(transport: transport) else { return 0 }
        let device = LEDevice(host: host, database: database)
        guard (try? await device.start()) != nil else {
            Harness.check(false, "the device does not start on the fuzz controller")
            return 0
        }
        guard let connection = await connect(device, transport: transport, central: setup & 1 == 0) else {
            Harness.check(false, "the scripted LE Connection Complete made no connection")
            return 0
        }
        let peerServer = PeerATT(database: database)
        let started = loop.now
        var budget = Duration.seconds(70)
        var touched = 0
        await withTaskGroup(of: Int.self) { group in
            var steps = 0
            while !input.isAtEnd, steps < 128 {
                steps += 1
                switch input.pick(12) {
                case 0, 1, 2:
                    let channels = [L2CAPChannelID.att, L2CAPChannelID.leSignaling, L2CAPChannelID.smp]
                    let frame = L2CAPFrame(channel: channels[Int(input.byte()) % 3], payload: input.chunk())
                    deliver(frame.encoded, split: Int(input.byte()), to: transport)
                case 3:
                    if let answer = peerServer.answerLast(sent: transport.sentACL) {
                        deliver(L2CAPFrame(channel: L2CAPChannelID.att, payload: answer).encoded, split: 0, to: transport)
                    }
                case 4:
                    transport.deliver(.event(HCIEventPacket(code: input.byte(), parameters: input.chunk())))
                case 5:
                    transport.deliver(FuzzController.completedPackets(handle: handle, count: UInt16(input.byte() & 0x07)))
                case 6:
                    let status = input.byte() & 0x01
                    transport.deliver(.event(HCIEventPacket(code: 0x08, parameters: [status, UInt8(handle & 0xFF), UInt8(handle >> 8), 0x01])))
                case 7, 8, 9, 10:
                    let which = input.byte()
                    let argument = input.byte()
                    group.addTask { await operate(which, argument, connection: connection) }
                default:
                    await VirtualDrive.pause(.milliseconds(20 * Int(input.byte())), budget: &budget)
                }
                await Task.yield()
            }
            await Harness.disconnectAll(host, on: transport)
            for await result in group { touched &+= result }
        }
        // Negative Replies to LTK requests for handles with no link are the device's own calls, each within the
        // command deadline from its request (the last may come with the last step).
        await device.unknownKeyRequestAnswersEnded()
        budget += host.defaultCommandTimeout
        await Harness.checkSettled(host, started: started, loop: loop, budget: budget)
        let waits = await connection.pendingWaitsSummary
        Harness.check(await connection.pendingWaits == 0, "the ended link still has waiters: \(waits)")
        Harness.check(await connection.gatt.pendingTransactions == 0, "the ended link's GATT client still has requests")
        touched &+= await connection.anomalies.count
        await device.close()
        return touched
    }

    /// A link to `peer`: as central through `connect` (the controller answers LE Create Connection with LE
    /// Connection Complete), or as peripheral, announced by `incomingConnections`.
    private static func connect(_ device: LEDevice, transport: FuzzTransport, central: Bool) async -> LEConnection? {
        if central { return try? await device.connect(to: peer, type: .public) }
        let incoming = await device.incomingConnections()
        transport.deliver(FuzzController.connectionComplete(handle: handle, role: 1))
        for await connection in incoming { return connection }
        return nil
    }

    /// Hands the host an L2CAP PDU from the peer, in one ACL fragment or, with `split` > 0, two.
    private static func deliver(_ pdu: [UInt8], split: Int, to transport: FuzzTransport) {
        let cut = split == 0 ? pdu.count : min(pdu.count, split % (pdu.count + 1))
        transport.deliver(.aclData(ACLDataPacket(handle: handle, boundary: .firstFlushable, data: Array(pdu[..<cut]))))
        if cut < pdu.count {
            transport.deliver(.aclData(ACLDataPacket(handle: handle, boundary: .continuing, data: Array(pdu[cut...]))))
        }
    }

    /// One host-side operation on the link; returns a count of what it got.
    private static func operate(_ which: UInt8, _ argument: UInt8, connection: LEConnection) async -> Int {
        let valueHandle = UInt16(argument % 48)
        do {
            switch which % 10 {
            case 0: return try await connection.gatt.discoverAll(readValues: argument & 1 == 0).services.count
            case 1: return try await connection.gatt.read(handle: valueHandle).count
            case 2: try await connection.gatt.write(handle: valueHandle, value: [argument])
            case 3: _ = try await connection.gatt.subscribe(valueHandle: valueHandle, clientConfigurationHandle: valueHandle &+ 1)
            case 4: return try await connection.notify(valueHandle: valueHandle, value: [argument]) ? 2 : 1
            case 5: return try await connection.indicate(valueHandle: valueHandle, value: [argument]) ? 2 : 1
            case 6:
                let capabilities: [IOCapability] = [.noInputNoOutput, .displayYesNo, .keyboardOnly, .displayOnly, .keyboardDisplay]
                let options = PairingOptions(ioCapability: capabilities[Int(argument) % capabilities.count], mitm: argument & 0x08 != 0,
                                             secureConnections: argument & 0x10 != 0, passkey: argument & 0x20 != 0 ? 123_456 : nil)
                return try await connection.pair(options).keySize == 16 ? 2 : 1
            case 7:
                try await connection.updateParameters(ConnectionParameters(intervalMin: 24, intervalMax: 40, latency: 0, supervisionTimeout: 400))
            case 8: return try await connection.disconnect().rawValue == 0 ? 1 : 2
            default: return (try? await connection.gatt.exchangeMTU()) ?? 0
            }
            return 1
        } catch {
            return String(describing: error).count
        }
    }
}
