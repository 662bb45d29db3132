import Foundation
import Testing
import TestSupport

/// Fixtures/smp-messages.json, written by scripts/peers/smp-messages.py from intercreate's `smp` message models and
/// smpclient's upload chunking.
struct SMPFixture: Decodable {
    struct Header: Decodable {
        var op: UInt8
        var version: UInt8
        var flags: UInt8
        var length: UInt16
        var group: UInt16
        var sequence: UInt8
        var command: UInt8
    }

    /// The fields of a response as smp's model holds them (those it left out are nil).
    struct Fields: Decodable {
        struct State: Decodable {
            var slot: Int
            var version: String
            var hash: String?
            var bootable, pending, confirmed, active, permanent: Bool?
        }

        struct Err: Decodable {
            var group: Int
            var rc: Int
        }

        var images: [State]?
        var off: Int?
        var match: Bool?
        var r: String?
        var rc: Int?
        var rsn: String?
        var err: Err?
    }

    /// A request (no fields) or a response.
    struct Message: Decodable {
        var what: String
        var header: Header
        var hex: String
        var fields: Fields?
        var bytes: [UInt8] { hexBytes(hex) }
    }

    struct Chunk: Decodable {
        var mtu: Int
        var what: String
        var off: Int
        var dataLength: Int
        var hex: String
    }

    var smp: String
    var smpclient: String
    var imageLength: Int
    var requests: [Message]
    var responses: [Message]
    var uploadChunks: [Chunk]

    static func load() throws -> SMPFixture {
        let url = try #require(Bundle.module.url(forResource: "smp-messages", withExtension: "json", subdirectory: "Fixtures"))
        return try JSONDecoder().decode(SMPFixture.self, from: Data(contentsOf: url))
    }

    /// The image smp-messages.py uploads: (i × 7 + 3) mod 256.
    static func image(_ length: Int) -> [UInt8] { (0..<length).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) } }
}
