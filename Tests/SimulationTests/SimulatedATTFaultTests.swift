import GATT
import Simulation
import Testing

/// The ATT faults a simulated accessory injects, through its ATT server's interceptor.
@Suite("Simulated ATT faults")
struct SimulatedATTFaultTests {
    @Test("Faults: drop, fail and delay one request; a failed command is ignored; the rest is answered as usual")
    func faults() throws {
        let database = try GATTDatabase(services: [.gap(name: "HIL-Faulty"), .battery(level: 90)])
        let name = try #require(database.serviceTree.characteristic(.deviceName)).valueHandle
        let battery = try #require(database.serviceTree.characteristic(.batteryLevel))
        let level = battery.valueHandle
        let cccd = try #require(battery.descriptors.first { $0.uuid == .clientCharacteristicConfiguration }).handle
        var server = ATTServer(database: database)
        server.interceptor = SimulatedATTFault.interceptor { pdu in
            switch pdu {
            case .readRequest(name): .drop
            case .readRequest(cccd), .writeCommand: .fail(.unlikelyError)
            case .readRequest(level): .delay(.milliseconds(250))
            default: nil
            }
        }
        let dropped = server.reply(to: ATTPDU.readRequest(handle: name).encoded())
        #expect(dropped.response == nil && dropped.events == [.dropped(.readRequest(handle: name))])
        #expect(server.handle(ATTPDU.readRequest(handle: cccd).encoded())
            == ATTPDU.errorResponse(request: .readRequest, handle: cccd, error: .unlikelyError).encoded())
        let slow = server.reply(to: ATTPDU.readRequest(handle: level).encoded())
        #expect(slow.response == ATTPDU.readResponse(value: [90]).encoded() && slow.delay == .milliseconds(250))
        let ignored = server.reply(to: ATTPDU.writeCommand(handle: cccd, value: [1, 0]).encoded())
        #expect(ignored.response == nil && ignored.events.isEmpty && !server.isSubscribed(level))
        let written = server.reply(to: ATTPDU.writeRequest(handle: cccd, value: [1, 0]).encoded())
        #expect(written.response == ATTPDU.writeResponse.encoded() && written.delay == nil && server.isSubscribed(level))
    }

    @Test("Each fault's interception: a delay, a drop, an Error Response naming the request's handle")
    func interceptions() {
        let read = ATTPDU.readRequest(handle: 0x0003)
        #expect(SimulatedATTFault.delay(.milliseconds(5)).interception(of: read) == .delay(.milliseconds(5)))
        #expect(SimulatedATTFault.drop.interception(of: read) == .drop)
        #expect(SimulatedATTFault.fail(.readNotPermitted).interception(of: read)
            == .replace(.errorResponse(request: .readRequest, handle: 0x0003, error: .readNotPermitted)))
        #expect(SimulatedATTFault.fail(.readNotPermitted).interception(of: .writeCommand(handle: 0x0003, value: [1])) == .replace(nil))
    }
}
