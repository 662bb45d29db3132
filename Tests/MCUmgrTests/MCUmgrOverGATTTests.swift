import EventLoops
import MCUbootImage
import MCUmgr
import Roles
import Testing
import Throughput

/// Our client against our simulated MCUboot accessory over GATT on the simulated air, on virtual time: uploads,
/// resumes, swaps, reverts and deadlines as MCUmgr and MCUboot define them.
@Suite struct MCUmgrOverGATTTests {
    @Test("A full update: upload in MTU-sized chunks from the device's offsets, test, reset into it, confirm, and it stays")
    func fullUpdate() async throws {
        let timing = MCUbootSlots.Timing(erase: .milliseconds(500), writePerKiB: .milliseconds(2), swap: .seconds(2))
        try await MCUmgrBench.with(timing: timing) { bench in
            let bytes = try MCUmgrBench.image("signed-ecdsa-p256")
            let image = try MCUbootImage(bytes)
            let running = try MCUbootImage(try MCUmgrBench.image("unsigned"))
            var client = try await bench.connect()
            #expect(try await client.echo("hello") == "hello")
            #expect(try await client.imageStates() == [MCUmgrImageState(slot: 0, version: "1.2.3.4", hash: running.hash, confirmed: true, active: true)])

            let report = try await client.upload(bytes, imageNumber: 0, upgrade: false)
            #expect(report.chunks.first?.offset == 0 && report.chunks.last?.answered == bytes.count && report.match == true)
            for (previous, next) in zip(report.chunks, report.chunks.dropFirst()) {
                #expect(next.offset == previous.answered, "each chunk starts at the offset the device answered")
            }
            // Each chunk fills one write of ATT_MTU − 3 = 244 octets as smpclient fills it: its first and later
            // chunks at MTU 247 (a later one at an offset under 256 carries one octet more: its offset is shorter).
            let smpclient = try SMPFixture.load().uploadChunks.filter { $0.mtu == 247 }
            #expect(report.chunks.first?.length == smpclient.first { $0.what == "first" }?.dataLength)
            let later = try #require(smpclient.first { $0.what == "at 1000" }?.dataLength)
            #expect(report.chunks.dropFirst().first?.length == later + 1)
            #expect(report.chunks.dropFirst(2).dropLast().allSatisfy { $0.length == later })
            let first = try #require(report.chunks.first)
            #expect(first.sent.duration(to: first.received) >= .milliseconds(500), "the first chunk's answer waits for the slot erase")

            var states = try await client.imageStates()
            #expect(states.count == 2 && states[1] == MCUmgrImageState(slot: 1, version: "2.0.1.77", hash: image.hash))
            states = try await client.test(hash: image.hash)
            #expect(states[1].pending && !states[1].permanent)

            let resetAt = bench.clock.now
            try await client.reset()
            _ = try await client.link.waitForDisconnection(timeout: .seconds(2))
            client = try await bench.connect()
            #expect(resetAt.duration(to: bench.clock.now) >= .seconds(2), "the swap took its 2 s before the device advertised again")
            states = try await client.imageStates()
            #expect(states.first == MCUmgrImageState(slot: 0, version: "2.0.1.77", hash: image.hash, confirmed: false, active: true))
            #expect(states.last?.hash == running.hash)
            states = try await client.confirm()
            #expect(states.first?.confirmed == true)

            try await client.reset()
            _ = try await client.link.waitForDisconnection(timeout: .seconds(2))
            client = try await bench.connect()
            #expect(try await client.imageStates().first == MCUmgrImageState(slot: 0, version: "2.0.1.77", hash: image.hash, confirmed: true, active: true))
        }
    }

    @Test("An image booted for test and not confirmed reverts at the next reset")
    func unconfirmedReverts() async throws {
        try await MCUmgrBench.with { bench in
            let bytes = try MCUmgrBench.image("signed-ecdsa-p256")
            let image = try MCUbootImage(bytes)
            var client = try await bench.connect()
            _ = try await client.upload(bytes)
            _ = try await client.test(hash: image.hash)
            for _ in 0..<2 {
                try await client.reset()
                _ = try await client.link.waitForDisconnection(timeout: .seconds(2))
                client = try await bench.connect()
            }
            let states = try await client.imageStates()
            #expect(states.first?.version == "1.2.3.4" && states.first?.confirmed == true)
            #expect(states.last == MCUmgrImageState(slot: 1, version: "2.0.1.77", hash: image.hash))
            #expect(await bench.slots.boots == 2)
        }
    }

    @Test("After a link drop mid-upload the next upload resumes from the device's offset, not from 0")
    func resumeAfterLinkDrop() async throws {
        try await MCUmgrBench.with { bench in
            let bytes = try MCUmgrBench.image("signed-ecdsa-p256")
            let image = try MCUbootImage(bytes)
            var client = try await bench.connect()
            let link = client.link
            await #expect(throws: MCUmgrError.self) {
                _ = try await client.upload(bytes) { chunk in
                    if chunk.answered >= bytes.count / 2 { _ = try? await link.disconnect() }
                }
            }
            let held = await bench.slots.uploadOffset
            #expect(held >= bytes.count / 2 && held < bytes.count)
            try await bench.advertise()
            client = try await bench.connect()
            let report = try await client.upload(bytes)
            #expect(report.firstAnswer == held, "the device answered the first request with the offset it held")
            #expect(report.chunks.dropFirst().first?.offset == held, "the second chunk starts there")
            let sent = report.chunks.dropFirst().reduce(0) { $0 + $1.length }
            #expect(sent == bytes.count - held, "nothing before the held offset went again")
            #expect(report.bitsPerSecond == Double(bytes.count - held) * 8 / report.seconds,
                    "the throughput counts what this upload moved, not the offset the device already held")
            #expect(await bench.slots.secondary?.hash == image.hash)
        }
    }

    @Test("A device that stops answering ends the request at exactly its deadline, naming what was awaited")
    func silentDevice() async throws {
        try await MCUmgrBench.with(serving: false) { bench in
            let client = try await bench.connect()
            let started = bench.clock.now
            do throws(MCUmgrError) {
                _ = try await client.echo("anyone?", timeout: .seconds(3))
                Issue.record("a device that serves no MCUmgr answered")
            } catch {
                guard case .silent(let awaited, let timeout, let instead) = error else { throw error }
                #expect(started.duration(to: bench.clock.now) == .seconds(3))
                #expect(awaited == "echo response" && timeout == .seconds(3))
                #expect(instead == "the link stayed up and the device said nothing")
                #expect(error.description == "no echo response within 3s; the link stayed up and the device said nothing")
            }
            await #expect(throws: MCUmgrError.self) { _ = try await client.imageStates() }
        }
    }

    @Test("An upload whose device falls silent ends naming the offset it awaited, after the chunk deadline")
    func silentMidUpload() async throws {
        // A write of 1 KiB taking 10 s: the chunk at 0 is answered after the erase; the next outlasts its 1 s deadline.
        try await MCUmgrBench.with(timing: MCUbootSlots.Timing(erase: .milliseconds(10), writePerKiB: .seconds(10), swap: .seconds(1))) { bench in
            let client = try await bench.connect()
            let bytes = try MCUmgrBench.image("signed-ecdsa-p256")
            do throws(MCUmgrError) {
                _ = try await client.upload(bytes, firstTimeout: .seconds(5), chunkTimeout: .seconds(1))
                Issue.record("the upload finished although the device took 10 s a KiB")
            } catch {
                guard case .silent(let awaited, let timeout, _) = error else { throw error }
                #expect(awaited.hasPrefix("image upload response to offset ") && awaited != "image upload response to offset 0")
                #expect(timeout == .seconds(1))
            }
        }
    }

    @Test("An image whose hash does not match is refused: MCUboot erases it at the reset and the old image runs on")
    func badHashRefused() async throws {
        try await MCUmgrBench.with { bench in
            var bytes = try MCUmgrBench.image("signed-ecdsa-p256")
            bytes[0x200 + 10] ^= 0xFF
            #expect(throws: MCUbootImageError.self) { try MCUbootImage(bytes) }
            let stated = try MCUbootImage(bytes, checkingHash: false).hash
            var client = try await bench.connect()
            _ = try await client.upload(bytes)
            _ = try await client.test(hash: stated)
            try await client.reset()
            _ = try await client.link.waitForDisconnection(timeout: .seconds(2))
            client = try await bench.connect()
            let states = try await client.imageStates()
            #expect(states.count == 1 && states.first?.version == "1.2.3.4" && states.first?.confirmed == true)
        }
    }

    @Test("Requests the device refuses are named failures: a hash it does not hold, testing the running image")
    func refusals() async throws {
        try await MCUmgrBench.with { bench in
            let client = try await bench.connect()
            do throws(MCUmgrError) {
                _ = try await client.test(hash: Array(repeating: 0xAB, count: 32))
                Issue.record("the device tested an image it does not hold")
            } catch {
                guard case .refused(let failure, let request) = error else { throw error }
                #expect(failure == .group(.image(MCUmgrGroupError.Image.hashNotFound)))
                #expect(error.description == "the device refused image test: image management (group 1) error 8 HASH_NOT_FOUND")
                #expect(request == "image test")
            }
            let running = try MCUbootImage(try MCUmgrBench.image("unsigned"))
            await #expect(throws: MCUmgrError.self) { _ = try await client.test(hash: running.hash) }
        }
    }

    @Test("Upload throughput, flash taking no time, beside a stream of writes on the same link (ATT_MTU 247, LE 1M)",
          arguments: [1, 2, 4, 8])
    func throughput(window: Int) async throws {
        try await MCUmgrBench.with(timing: MCUbootSlots.Timing(erase: .zero, writePerKiB: .zero, swap: .zero)) { bench in
            let client = try await bench.connect()
            let image = (0..<65_536).map { UInt8(truncatingIfNeeded: $0 * 31 + 7) }
            let upload = try await client.upload(image, window: window)
            let stream = try await BenchClient.find(on: client.link).send(for: .seconds(2))
            let ratio = upload.bitsPerSecond / stream.bitsPerSecond
            // What the link allows for image data: the stream's rate times the share of each write an upload request
            // at a typical offset gives to image data (the rest is its SMP header and CBOR framing).
            let request = try #require(MCUmgrRequest.upload(of: image, MCUmgrRequest.Upload(offset: 32_768), maximum: stream.mtu - 3, sequence: 0))
            let framing = Double(request.body["data"]?.bytes?.count ?? 0) / Double(request.encoded.count)
            let figures = "window \(window): MCUmgr upload \(Int(upload.bitsPerSecond)) bit/s in \(upload.chunks.count) chunks; writes \(Int(stream.bitsPerSecond)) bit/s "
                + "at ATT_MTU \(stream.mtu), data length \(stream.dataLength), \(stream.phy), interval \(stream.intervalMilliseconds) ms; "
                + "\(request.encoded.count - (request.body["data"]?.bytes?.count ?? 0)) of a request's \(request.encoded.count) octets are framing"
            #expect(upload.chunks.last?.answered == image.count && upload.match == true)
            if window == 1 {
                // One request and its answer at a time, as smpclient uploads: each answer costs a connection event.
                #expect(ratio / framing < 0.9, "\(figures): ratio \(ratio)")
            } else if window >= 4 {
                // Four requests in flight (the client's default window): within 10% of what the link allows for image data.
                #expect(ratio / framing >= 0.9, "\(figures): ratio \(ratio), of what the link allows for image data \(ratio / framing)")
            }
            // scripts/bench/bench-dfu prints these lines.
            let rounded = { (value: Double) in (value * 1000).rounded() / 1000 }
            print("MCUmgr upload throughput: \(figures): ratio \(rounded(ratio)), of what the link allows for image data \(rounded(ratio / framing))")
        }
    }
}
