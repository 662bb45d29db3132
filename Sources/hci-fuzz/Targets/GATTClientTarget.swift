// gatt-client: a peer's responses to our GATT client's procedures.
import HCIPackets
import EventLoops
import GATT

/// A `GATTClient` whose requests a `FuzzPeerServer` answers (real, mutated, fuzzed or no answer), running
/// procedures the input picks one after another: full discovery (with value reads), read, read blob,
/// long write, write, write without response, subscribe, read by UUID, read multiple (fixed and variable).
///
/// Checked: no trap; every procedure ends, with a result or an error, within one ATT transaction
/// timeout of virtual time (a timeout closes the bearer, so the rest fail at once); a closed bearer
/// leaves no request pending.
enum GATTClientTarget {
    static let target = FuzzTarget(name: "gatt-client", summary: "peer responses to GATT client discovery, read, read blob, write, notifications", run: run)

    static func run(_ bytes: [UInt8]) -> Int {
        VirtualDrive.run { loop in await drive(bytes, loop: loop) } ?? 0
    }

    private static func drive(_ bytes: [UInt8], loop: EventLoop) async -> Int {
        guard let database = FuzzDatabase.make() else { return 0 }
        var input = FuzzInput(bytes)
        let procedures = input.take(8)
        let peer = FuzzPeerServer(input: input, database: database)
        let clientBox = ResultBox<GATTClient>()
        let client = GATTClient(loop: loop) { bytes in
            for answer in peer.answer(bytes) { await clientBox.get()?.receive(answer) }
        }
        clientBox.set(client)
        let started = loop.now
        var touched = 0
        for procedure in procedures {
            touched &+= await run(procedure, on: client, database: database)
        }
        let elapsed = started.duration(to: loop.now)
        Harness.check(elapsed <= GATTClient.defaultTransactionTimeout + .seconds(1),
                      "GATT procedures took \(elapsed) of virtual time, more than one transaction timeout")
        await client.bearerClosed("the fuzz input ended")
        Harness.check(await client.pendingTransactions == 0, "a closed bearer still has requests pending")
        touched &+= await client.unmatchedPDUs.count
        clientBox.clear()  // the client's send closure holds the box: without this, every input's client leaked
        return touched
    }

    /// One procedure; returns a count of what it got.
    private static func run(_ procedure: UInt8, on client: GATTClient, database: GATTDatabase) async -> Int {
        let handle = UInt16(procedure >> 3) % UInt16(database.attributeCount + 2)
        do {
            switch procedure & 0x07 {
            case 0: return try await client.discoverAll(readValues: true).services.count
            case 1: return try await client.read(handle: handle).count
            case 2: return try await client.readBlob(handle: handle, offset: 22).count
            case 3: try await client.writeLong(handle: handle, value: Array(0..<60))
            case 4: try await client.write(handle: handle, value: [procedure])
            case 5:
                let stream = try await client.subscribe(valueHandle: handle, clientConfigurationHandle: handle &+ 1)
                _ = stream
            case 6: return try await client.read(uuid: BluetoothUUID(UInt16(0x2A19))).count
            default:
                return try await procedure & 0x80 == 0 ? client.readMultiple(handles: [handle, handle &+ 1]).count
                    : client.readMultipleVariable(handles: [handle, handle &+ 1]).count
            }
            return 1
        } catch {
            return error.description.count
        }
    }
}
