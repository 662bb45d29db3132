// The one fuzz callback, shared by libFuzzer (`LLVMFuzzerTestOneInput`) and the replay mode.
import HCIPackets
import EventLoops
import HostCore
import SMP

/// Runs one input through the H4 framer, the event, ACL, advertising and SMP decoders, and every
/// summary and description of what decodes.
///
/// Input layout: byte 0 is a control byte, the rest is an H4 byte stream (indicator, header,
/// payload, …). The control byte picks where the stream is split (the first part is fed in one
/// call, the rest in chunks), the chunk size, and the framer's data length limit. Untrusted bytes must produce errors, never a
/// trap; a trap here is a bug in `HCI`. Besides traps, the harness checks properties that hold
/// for any input (`check` traps when one fails):
/// - the framer yields the same packets and the same error however the stream is split;
/// - the packets re-encode to exactly the bytes they were framed from;
/// - an ACL packet's bytes decode back to the same packet;
/// - advertising data that parses strictly parses leniently to the same structures, and
///   re-parses from its own encoding.
enum Harness {
    /// Returns a number derived from everything formatted, so nothing is optimized away.
    static func run(_ input: [UInt8]) -> Int {
        guard let control = input.first else { return 0 }
        let stream = Array(input.dropFirst())
        var touched = 0
        touched &+= frame(stream, control: control)
        // The decoders on the raw stream as well, so deep decoding does not need valid framing.
        touched &+= decodeEvent(stream)
        touched &+= decodeACL(stream)
        touched &+= parseAdvertising(stream)
        touched &+= decodeSMP(stream)
        return touched
    }

    /// An SMP PDU (Core v5.4 Vol 3 Part H §3): what decodes re-encodes to the same bytes; what does not
    /// names a Pairing Failed reason.
    private static func decodeSMP(_ bytes: [UInt8]) -> Int {
        do {
            let pdu = try SMPPDU(decoding: bytes)
            check(pdu.encoded == bytes, "SMP PDU \(pdu.code) re-encodes to other bytes")
            return pdu.code.description.count
        } catch {
            return error.description.count &+ Int(error.reason.rawValue)
        }
    }

    /// The host's invariants once every link dropped and every call returned: the calls ended within the
    /// virtual time their deadlines allow (`budget`), and no connection, command, waiter, ACL send or ACL credit
    /// is left behind.
    static func checkSettled(_ host: HCIHost, started: ContinuousClock.Instant, loop: EventLoop, budget: Duration) async {
        await VirtualDrive.sleep(.milliseconds(1))
        let elapsed = started.duration(to: loop.now)
        check(elapsed <= budget, "the calls took \(elapsed) of virtual time, more than their deadlines allow (\(budget))")
        let outstanding = await host.outstanding
        check(outstanding.connections == 0, "connections left after every link dropped: \(outstanding)")
        check(outstanding.queuedCommands == 0 && outstanding.sentCommands == 0 && outstanding.eventWaiters == 0,
              "commands or waiters left after every call ended: \(outstanding)")
        check(outstanding.queuedACLSends == 0 && outstanding.aclInFlight.isEmpty && outstanding.drainWaiters == 0,
              "ACL data left after every link dropped: \(outstanding)")
        check(outstanding.availableACLBuffers == outstanding.totalACLBuffers, "LE ACL credits leaked: \(outstanding)")
    }

    /// Disconnection Complete for every link `host` still has, lowest handle first: the end of a run.
    static func disconnectAll(_ host: HCIHost, on transport: FuzzTransport) async {
        for handle in await host.connections.keys.sorted() {
            transport.deliver(FuzzController.disconnectionComplete(handle: handle))
        }
    }

    /// Traps with `message` unless `condition` holds; active in debug and release builds alike.
    static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("hci-fuzz invariant: \(message())") }
    }

    // MARK: - H4 framing

    private static func frame(_ stream: [UInt8], control: UInt8) -> Int {
        // Bits 0-3: the split point, in 15ths of the stream (so a large first part can reach the
        // framer's compaction); bits 4-6: the chunk size, 1 to 128; bit 7: the data length limit.
        let split = stream.count * Int(control & 0x0F) / 15
        let chunkSize = 1 << Int((control >> 4) & 0x07)
        let limit = control & 0x80 == 0 ? 4096 : 251

        // Split: the first part in one call, the rest in chunks of `chunkSize`.
        var framer = H4Framer(maximumDataLength: limit)
        var packets: [HCIPacket] = []
        var failure: H4FramingError?
        var chunks: [ArraySlice<UInt8>] = [stream[..<split]]
        var start = split
        while start < stream.count {
            let end = min(start + chunkSize, stream.count)
            chunks.append(stream[start..<end])
            start = end
        }
        for chunk in chunks {
            do {
                packets += try framer.feed(chunk)
            } catch {
                failure = error
                break
            }
        }
        if failure != nil {
            // A failed framer stays failed.
            do {
                _ = try framer.feed([HCIPacketIndicator.event.rawValue, 0x10, 0x01, 0x00])
                check(false, "a failed framer accepted more bytes")
            } catch {
                check(error == failure, "a failed framer threw \(error), not its first error")
            }
        }

        // Reference: the whole stream in one call.
        var reference = H4Framer(maximumDataLength: limit)
        var referencePackets: [HCIPacket] = []
        var referenceFailure: H4FramingError?
        do {
            referencePackets = try reference.feed(stream)
        } catch {
            referenceFailure = error
        }
        check(failure == referenceFailure,
              "split at \(split) in chunks of \(chunkSize) failed with \(String(describing: failure)), "
                + "whole with \(String(describing: referenceFailure))")

        // What was framed re-encodes to the bytes it came from.
        let framed = packets.flatMap(\.h4Bytes)
        check(Array(stream.prefix(framed.count)) == framed, "framed packets do not re-encode to their bytes")
        if failure == nil {
            check(packets == referencePackets, "split framing yielded other packets than whole framing")
            check(framed.count + framer.pendingByteCount == stream.count,
                  "\(framed.count) framed + \(framer.pendingByteCount) pending != \(stream.count) bytes")
        }

        var touched = (failure?.description.count ?? 0) &+ (referenceFailure?.description.count ?? 0)
        for packet in packets {
            touched &+= exercise(packet)
        }
        return touched
    }

    private static func exercise(_ packet: HCIPacket) -> Int {
        var touched = packet.description.count &+ packet.indicator.description.count &+ packet.bodyBytes.count
        switch packet {
        case .command(let command):
            touched &+= command.opcode.description.count &+ (command.opcode.name?.count ?? 0) &+ command.bytes.count
        case .event(let event):
            touched &+= exercise(event)
        case .aclData(let acl):
            do {
                let decoded = try ACLDataPacket(decoding: acl.bytes)
                check(decoded == acl, "ACL packet does not decode from its own bytes")
            } catch {
                check(false, "ACL packet's own bytes do not decode: \(error)")
            }
        case .other(let indicator, let bytes):
            touched &+= indicator.description.count &+ bytes.count
        }
        return touched
    }

    // MARK: - Events

    private static func decodeEvent(_ stream: [UInt8]) -> Int {
        guard let code = stream.first else { return 0 }
        return exercise(HCIEventPacket(code: code, parameters: Array(stream.dropFirst())))
    }

    private static func exercise(_ packet: HCIEventPacket) -> Int {
        let event: HCIEvent
        do {
            event = try HCIEvent(decoding: packet)
        } catch {
            return error.description.count
        }
        var touched = event.summary.count
        switch event {
        case .commandComplete(_, let opcode, let returnParameters):
            touched &+= opcode.description.count &+ returnParameters.count
        case .commandStatus(let status, _, let opcode):
            touched &+= status.description.count &+ status.name.count &+ opcode.description.count
        case .disconnectionComplete(let complete):
            touched &+= complete.status.description.count &+ complete.reason.description.count
        case .numberOfCompletedPackets(let entries):
            touched &+= entries.count
        case .hardwareError, .dataBufferOverflow:
            break
        case .encryptionChange(let status, _, _), .encryptionKeyRefreshComplete(let status, _):
            touched &+= status.description.count
        case .readRemoteVersionComplete(let version):
            touched &+= version.status.description.count &+ version.version.description.count
            touched &+= version.manufacturer.description.count
        case .le(let le):
            touched &+= exercise(le)
        case .unknown(_, let parameters):
            touched &+= parameters.count
        }
        return touched
    }

    private static func exercise(_ event: LEMetaEvent) -> Int {
        var touched = event.summary.count
        switch event {
        case .connectionComplete(let complete):
            touched &+= complete.status.description.count &+ complete.role.description.count
            touched &+= complete.peerAddressType.description.count &+ complete.peerAddress.description.count
            touched &+= (complete.localResolvablePrivateAddress?.description.count ?? 0)
            touched &+= (complete.peerResolvablePrivateAddress?.description.count ?? 0)
        case .advertisingReports(let reports):
            for report in reports {
                touched &+= report.address.description.count &+ report.addressType.description.count
                touched &+= exercise(report.advertisingData)
                touched &+= parseAdvertising(report.data)
            }
        case .connectionUpdateComplete(let status, _, _, _, _), .phyUpdateComplete(let status, _, _, _),
             .advertisingSetTerminated(let status, _, _, _):
            touched &+= status.description.count
        case .readRemoteFeaturesComplete(let status, _, let features):
            touched &+= status.description.count &+ features.rawValue.nonzeroBitCount
        case .scanRequestReceived(_, let type, let address):
            touched &+= type.description.count &+ address.description.count
        case .dataLengthChange, .scanTimeout, .channelSelectionAlgorithm, .longTermKeyRequest:
            break
        case .unknown(_, let parameters):
            touched &+= parameters.count
        }
        return touched
    }

    // MARK: - ACL

    private static func decodeACL(_ stream: [UInt8]) -> Int {
        do {
            let packet = try ACLDataPacket(decoding: stream)
            check(packet.bytes == stream, "a decoded ACL packet does not re-encode to its bytes")
            return packet.data.count
        } catch {
            return error.description.count
        }
    }

    // MARK: - Advertising data

    private static func parseAdvertising(_ bytes: [UInt8]) -> Int {
        let lenient = AdvertisingData.lenientlyParsed(bytes)
        var touched = exercise(lenient)
        do {
            let strict = try AdvertisingData(parsing: bytes)
            check(strict == lenient, "strict and lenient parsing differ on well-formed data")
            check((try? AdvertisingData(parsing: strict.encoded())) == strict,
                  "advertising data does not re-parse from its encoding")
        } catch {
            touched &+= error.description.count
            check(lenient.encodedCount == error.offset,
                  "lenient parsing kept \(lenient.encodedCount) bytes, the error is at offset \(error.offset)")
        }
        return touched
    }

    private static func exercise(_ ad: AdvertisingData) -> Int {
        var touched = ad.summary.count &+ ad.encodedCount &+ ad.encoded().count
        touched &+= (ad.localName?.count ?? 0) &+ Int(ad.txPowerLevel ?? 0) &+ Int(ad.appearance ?? 0)
        touched &+= Int(ad.flags?.rawValue ?? 0)
        for uuid in ad.serviceUUIDs {
            touched &+= uuid.description.count &+ (uuid.name?.count ?? 0)
        }
        for (uuid, data) in ad.serviceData {
            touched &+= uuid.description.count &+ data.count
        }
        for (company, data) in ad.manufacturerData {
            touched &+= company.description.count &+ data.count
        }
        for structure in ad.structures {
            touched &+= structure.type.description.count
        }
        return touched
    }
}
