import BluetoothCrypto
import CBOR
import MCUmgr
import Testing
import TestSupport

/// Our requests against the bytes intercreate's `smp` message models give for them, and our reading of the
/// responses `smp` encodes against the fields its models hold (Fixtures/smp-messages.json).
@Suite struct MCUmgrMessageTests {
    static let fixture = Result { try SMPFixture.load() }
    static let hash = (0..<32).map(UInt8.init)

    static func request(_ what: String) throws -> SMPFixture.Message {
        try #require(try fixture.get().requests.first { $0.what == what }, "no fixture request '\(what)'")
    }

    static func response(_ what: String) throws -> SMPFixture.Message {
        try #require(try fixture.get().responses.first { $0.what == what }, "no fixture response '\(what)'")
    }

    @Test("Each request encodes to the bytes smp's model gives, header fields and CBOR body alike")
    func requestsAsSMPEncodesThem() throws {
        let image = SMPFixture.image(try Self.fixture.get().imageLength)
        let sha = try SHA256.digest(image)
        var v1Echo = MCUmgrRequest.echo("v1", sequence: 2)
        v1Echo.header.version = .v1
        let ours: [(String, MCUmgrMessage)] = [
            ("echo 'hello'", MCUmgrRequest.echo("hello", sequence: 1)),
            ("echo 'v1' as version 1", v1Echo),
            ("reset", MCUmgrRequest.reset(sequence: 3)),
            ("reset forced", MCUmgrRequest.reset(force: true, sequence: 4)),
            ("image state read", MCUmgrRequest.imageState(sequence: 5)),
            ("image state write: test hash", MCUmgrRequest.setImageState(hash: Self.hash, confirm: false, sequence: 6)),
            ("image state write: confirm the running image", MCUmgrRequest.setImageState(hash: nil, confirm: true, sequence: 7)),
            ("image state write: confirm hash", MCUmgrRequest.setImageState(hash: Self.hash, confirm: true, sequence: 8)),
            ("image upload: first chunk", MCUmgrRequest.upload(.init(offset: 0, length: image.count, sha: sha),
                                                               data: Array(image[..<100]), sequence: 9)),
            ("image upload: first chunk with image and upgrade",
             MCUmgrRequest.upload(.init(offset: 0, length: image.count, sha: sha, image: 0, upgrade: false), data: Array(image[..<40]), sequence: 10)),
            ("image upload: chunk at 4096", MCUmgrRequest.upload(.init(offset: 4096), data: Array(image[4096..<4296]), sequence: 11)),
            ("image erase", MCUmgrRequest.erase(sequence: 12)),
            ("image erase slot 1", MCUmgrRequest.erase(slot: 1, sequence: 13)),
        ]
        #expect(ours.count == (try Self.fixture.get().requests.count))
        for (what, message) in ours {
            let expected = try Self.request(what)
            #expect(message.encoded == expected.bytes, "\(what)")
            #expect(message.header.operation.rawValue == expected.header.op && message.header.version.rawValue == expected.header.version
                    && message.header.length == expected.header.length && message.header.group.rawValue == expected.header.group
                    && message.header.sequence == expected.header.sequence && message.header.command == expected.header.command, "\(what)")
            #expect(try MCUmgrMessage(decoding: expected.bytes) == message, "\(what) reads back")
        }
    }

    @Test("Image state responses read as smp's model holds them: slots, versions, hashes and flags")
    func imageStates() throws {
        for what in ["image state response", "image state write response"] {
            let response = try Self.response(what)
            let message = try MCUmgrMessage(decoding: response.bytes)
            #expect(try message.failure() == nil)
            let states = try MCUmgrImageState.list(in: message.body)
            let expected = try #require(response.fields?.images)
            #expect(states.count == expected.count)
            for (state, fields) in zip(states, expected) {
                #expect(state.slot == fields.slot && state.version == fields.version)
                #expect(state.hash == fields.hash.map(hexBytes))
                #expect(state.bootable == (fields.bootable ?? false) && state.pending == (fields.pending ?? false)
                        && state.confirmed == (fields.confirmed ?? false) && state.active == (fields.active ?? false)
                        && state.permanent == (fields.permanent ?? false))
            }
            let reencoded = MCUmgrMessage(message.header.operation, group: .image, command: 0, sequence: message.header.sequence,
                                          body: .map(["images": .array(states.map(\.cbor))]))
            #expect(reencoded.encoded == response.bytes, "our server's encoding of the same states is smp's")
        }
    }

    @Test("Upload responses give the device's offset and, at the end, whether the hash matched")
    func uploadProgress() throws {
        let middle = try MCUmgrMessage(decoding: try Self.response("upload response at 4096").bytes)
        #expect(try MCUmgrUploadProgress(middle.body) == MCUmgrUploadProgress(offset: 4096))
        let last = try Self.response("upload response, last, hash matched")
        let progress = try MCUmgrUploadProgress(try MCUmgrMessage(decoding: last.bytes).body)
        #expect(progress.offset == last.fields?.off && progress.match == last.fields?.match)
        #expect(MCUmgrMessage(.writeResponse, group: .image, command: 1, sequence: 12, body: progress.cbor).encoded == last.bytes)
        let echo = try MCUmgrMessage(decoding: try Self.response("echo response").bytes)
        #expect(echo.body["r"]?.text == (try Self.response("echo response").fields?.r) && echo.answers(MCUmgrRequest.echo("hello", sequence: 1)))
        #expect(!echo.answers(MCUmgrRequest.echo("hello", sequence: 2)), "another sequence number is another request's answer")
    }

    @Test("rc and v2 group errors are named failures with the codes smp's enums give")
    func failures() throws {
        let v1Fixture = try Self.response("rc error (version 1)")
        let v1 = try MCUmgrMessage(decoding: v1Fixture.bytes)
        #expect(v1.header.version == .v1 && v1Fixture.header.version == 0)
        #expect(try v1.failure() == .returnCode(MCUmgrReturnCode(rawValue: try #require(v1Fixture.fields?.rc)), reason: nil))
        #expect(try v1.failure() == .returnCode(.badState, reason: nil))
        #expect(try v1.failure()?.description == "rc 6 EBADSTATE")
        let reason = try MCUmgrMessage(decoding: try Self.response("rc error with reason").bytes)
        #expect(try reason.failure() == .returnCode(.notSupported, reason: "no"))
        let v2Fixture = try Self.response("group error (version 2)")
        let v2 = try MCUmgrMessage(decoding: v2Fixture.bytes)
        let err = try #require(v2Fixture.fields?.err)
        #expect(try v2.failure() == .group(MCUmgrGroupError(group: MCUmgrGroup(rawValue: UInt16(err.group)), rc: err.rc)))
        #expect(try v2.failure() == .group(MCUmgrGroupError(group: .image, rc: MCUmgrGroupError.Image.invalidHash)))
        #expect(try v2.failure()?.description == "image management (group 1) error 24 INVALID_HASH")
        let os = try MCUmgrMessage(decoding: try Self.response("os group error (version 2)").bytes)
        #expect(try os.failure()?.description == "OS management (group 0) error 1 UNKNOWN")
        for what in ["reset response", "erase response", "echo response"] {
            #expect(try MCUmgrMessage(decoding: try Self.response(what).bytes).failure() == nil, "\(what)")
        }
    }

    @Test("Upload chunks fill the MTU exactly as smpclient's do, byte for byte, first chunk and later ones")
    func chunksAsSMPClientMakesThem() throws {
        let fixture = try Self.fixture.get()
        let image = SMPFixture.image(fixture.imageLength)
        let sha = try SHA256.digest(image)
        for chunk in fixture.uploadChunks {
            let fields = chunk.off == 0 ? MCUmgrRequest.Upload(offset: 0, length: image.count, sha: sha, image: 0, upgrade: false)
                                        : MCUmgrRequest.Upload(offset: chunk.off)
            #expect(MCUmgrRequest.uploadRoom(fields, maximum: chunk.mtu - 3) >= chunk.dataLength, "MTU \(chunk.mtu) \(chunk.what)")
            let sequence: UInt8 = chunk.what == "first" ? 20 : chunk.off == 1000 ? 21 : 22
            let ours = MCUmgrRequest.upload(of: image, fields, maximum: chunk.mtu - 3, sequence: sequence)
            if chunk.dataLength == 0 {
                #expect(ours == nil, "MTU \(chunk.mtu) \(chunk.what): smpclient's chunk carries no data, ours is refused")
            } else {
                #expect(ours?.encoded == hexBytes(chunk.hex), "MTU \(chunk.mtu) \(chunk.what)")
                #expect((ours?.encoded.count ?? .max) <= chunk.mtu - 3)
            }
        }
    }

    @Test("Truncated, overlong and foreign messages are named errors")
    func malformedMessages() throws {
        let echo = try Self.request("echo 'hello'").bytes
        #expect(throws: MCUmgrMessageError.truncated(have: 5, need: 8)) { try MCUmgrMessage(decoding: Array(echo[..<5])) }
        #expect(throws: MCUmgrMessageError.truncated(have: 12, need: 17)) { try MCUmgrMessage(decoding: Array(echo[..<12])) }
        #expect(throws: MCUmgrMessageError.trailing(count: 1)) { try MCUmgrMessage(decoding: echo + [0]) }
        #expect(throws: MCUmgrMessageError.unknownOperation(7)) { try MCUmgrMessage(decoding: [0x0F] + echo.dropFirst()) }
        #expect(throws: MCUmgrMessageError.unknownVersion(2)) { try MCUmgrMessage(decoding: [0x12] + echo.dropFirst()) }
        #expect(throws: MCUmgrMessageError.body(.truncated(offset: 0))) { try MCUmgrMessage(decoding: [0x0A, 0, 0, 0, 0, 0, 1, 0]) }
        #expect(throws: MCUmgrMessageError.field("body", expected: "a map", got: .unsigned(1))) {
            try MCUmgrMessage(decoding: [0x0A, 0, 0, 1, 0, 0, 1, 0, 0x01])
        }
        let badErr = MCUmgrMessage(.writeResponse, group: .image, command: 0, sequence: 1, body: .map(["err": .text("x")]))
        #expect(throws: MCUmgrMessageError.self) { try badErr.failure() }
    }
}
