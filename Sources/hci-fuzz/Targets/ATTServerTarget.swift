// att-server: requests from a client to our ATT server.
import GATT

/// Byte 0 is the link's security (encrypted, authenticated, authorized, full key size) and the server's
/// largest MTU; the rest is a sequence of length-prefixed PDUs from the client. Every response must
/// decode as an ATT PDU, fit the ATT_MTU, and be the request's response or an Error Response naming
/// the request; commands and malformed commands get none.
enum ATTServerTarget {
    static let target = FuzzTarget(name: "att-server", summary: "ATT server request handling over a database with every permission kind", run: run)

    static func run(_ bytes: [UInt8]) -> Int {
        guard let database = FuzzDatabase.make() else {
            Harness.check(false, "the fuzz database does not build")
            return 0
        }
        var input = FuzzInput(bytes)
        let setup = input.byte()
        var server = ATTServer(database: database, maximumMTU: setup & 0x80 == 0 ? 517 : 23)
        server.security = ATTSecurity(rawValue: setup & 0x0F)
        var touched = 0
        while !input.isAtEnd {
            let request = input.chunk()
            let mtuBefore = server.mtu
            let reply = server.reply(to: request)
            touched &+= reply.events.count &+ server.subscriptions.count
            guard let response = reply.response else { continue }
            Harness.check(response.count <= max(mtuBefore, server.mtu), "a \(response.count)-byte response exceeds ATT_MTU \(server.mtu)")
            let opcode = ATTOpcode(request.first ?? 0)
            // §3.4.1.1: an opcode this server does not know, without the Command Flag, gets Request Not Supported.
            Harness.check(opcode.isRequest || opcode.rawValue & 0x40 == 0,
                          "the server answered \(opcode), which is neither a request nor an unknown one")
            switch try? ATTPDU(decoding: response) {
            case .errorResponse(let failed, _, _)?:
                Harness.check(failed == opcode, "an Error Response names \(failed), not the request \(opcode)")
            case let answer?:
                Harness.check(answer.opcode == opcode.expectedResponse, "\(opcode) was answered with \(answer.opcode)")
            case nil:
                Harness.check(false, "the server's response to \(opcode) does not decode")
            }
            touched &+= response.count
        }
        return touched
    }
}
