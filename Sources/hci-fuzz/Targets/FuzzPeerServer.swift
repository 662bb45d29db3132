// The peer's ATT server as the gatt-client and host targets play it: real, mutated or fuzzed answers.
import GATT
import Synchronization

/// Answers each request a GATT client sends, as one input byte says: what our `ATTServer` over the fuzz
/// database would answer, that answer with one byte changed, a fuzzed PDU (a length-prefixed chunk),
/// nothing at all (the client's transaction timer runs out), or a fuzzed notification or indication
/// first and then the real answer. Commands and confirmations are handled without input. Once the input is
/// used up the peer falls silent: the client's next transaction times out and closes the bearer, so an
/// input's work grows with its length (a 16-byte input ran eight full discoveries: 520 inputs/s).
final class FuzzPeerServer: Sendable {
    private struct State {
        var input: FuzzInput
        var server: ATTServer
    }
    private let state: Mutex<State>

    init(input: FuzzInput, database: GATTDatabase) {
        state = Mutex(State(input: input, server: ATTServer(database: database)))
    }

    /// The input left once the client is done with it.
    var input: FuzzInput { state.withLock { $0.input } }

    /// The PDUs to hand the client, in order, for one PDU it sent.
    func answer(_ pdu: [UInt8]) -> [[UInt8]] {
        state.withLock { state in
            let reply = state.server.reply(to: pdu)
            guard let real = reply.response, !state.input.isAtEnd else { return [] }
            switch state.input.byte() % 6 {
            case 0, 1:
                return [real]
            case 2:
                var changed = real
                changed[state.input.pick(changed.count)] ^= state.input.byte() | 1
                return [changed]
            case 3:
                return [state.input.chunk()]
            case 4:
                return []
            default:
                return [state.input.chunk(), real]
            }
        }
    }
}
