import HILTesting
import MCUbootImage
import MCUmgr
import Rigs
import Roles
import Synchronization
import Testing

/// The steps the firmware-update campaign's cases are made of, on one accessory that updates over MCUmgr SMP
/// into MCUboot's slots: connecting a client, uploading with a cut, resetting, and reading what runs.
struct FirmwareUpdateSteps {
    let bench: HILCase
    /// MCUboot's swap and the slot's erase on this accessory, as its firmwareUpdate (or simulated dfu) block declares them.
    let swap: Duration
    let erase: Duration
    /// From power to the firmware's start (before MCUboot's swap).
    let bootDelay: Duration
    /// The key the images are signed with, when the rig names one (the accessory's MCUboot checks signatures).
    let signingKey: MCUbootSigningKey?

    init(_ bench: HILCase) throws {
        guard let updates = bench.accessory?.updates else {
            throw BenchError("\(bench.accessory?.name ?? "the case") declares no firmwareUpdate (or simulated dfu) block")
        }
        self.bench = bench
        self.swap = updates.swap
        self.erase = updates.erase
        self.bootDelay = updates.boot
        self.signingKey = updates.signedWith
    }

    /// How long the accessory may take to advertise again after a reset or a power-on: the reconnect budget,
    /// Zephyr's 250 ms before an MCUmgr reset, and two swaps (one a power cut interrupted, finished at the next boot).
    var comeBack: Duration { bench.rig.budgets.reconnect + .milliseconds(250) + swap * 2 }

    /// Each request's deadline; the first upload chunk's also covers the slot's erase.
    var requestTimeout: Duration { .seconds(5) }
    var firstChunkTimeout: Duration { .seconds(5) + erase }

    /// Finds the accessory advertising within `timeout`, connects, asks for a 247-octet MTU and 251-octet PDUs,
    /// and opens an MCUmgr client on its SMP characteristic.
    func open(within timeout: Duration) async throws -> (LEConnection, MCUmgrClient) {
        let link = try await bench.connect(to: try await bench.findAccessory(timeout: timeout))
        let mtu = try await link.exchangeMTU(offering: 247)
        _ = try? await link.setDataLength(octets: 251)
        let client = try await MCUmgrClient.connect(on: link, timeout: requestTimeout)
        bench.mark(.connection, "MCUmgr SMP client on ATT_MTU \(mtu)")
        return (link, client)
    }

    /// The image slots as the device reports them, and the hash of the active one.
    func running(_ client: MCUmgrClient, sourceLocation: SourceLocation = #_sourceLocation) async throws -> (hash: [UInt8], states: [MCUmgrImageState]) {
        let states = try await client.imageStates()
        guard let active = states.first(where: \.active), let hash = active.hash else {
            throw MCUmgrError.violation("the device lists no active image with a hash: \(states)")
        }
        return (hash, states)
    }

    /// An image unlike the running one (its body drawn from the running image's hash), as imgtool makes one:
    /// signed with the rig's `signedWith` key when it names one (or with `key`), unsigned otherwise; with
    /// `corrupt`, one body octet flipped after the hash was computed.
    func image(unlike running: [UInt8], corrupt: Bool = false, signedWith key: MCUbootSigningKey? = nil) throws -> MCUbootImage {
        let body = (0..<24_576).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(running[$0 % running.count])) }
        let image = try MCUbootImage.make(version: MCUbootVersion(major: 2, minor: running[0], revision: UInt16(running[1]), build: 0), body: body,
                                          signingKey: key ?? signingKey)
        guard corrupt else { return image }
        var bytes = image.bytes
        bytes[image.header.headerSize + 100] ^= 0xff
        return try MCUbootImage(bytes, checkingHash: false)
    }

    /// Uploads `image`, calling `cut` once the device has acknowledged `fraction` of it; returns the upload's report
    /// when it completed, and what the device may hold when the cut came: from the offset it had acknowledged to
    /// the end of the data sent (requests still in flight behind that answer). A cut that ends the upload is
    /// expected: its error goes on the timeline.
    func upload(_ image: MCUbootImage, with client: MCUmgrClient, cuttingAt fraction: Double?,
                cut: @escaping @Sendable () async throws -> Void) async throws -> (report: MCUmgrUploadReport?, acknowledged: ClosedRange<Int>) {
        let threshold = fraction.map { Int(Double(image.bytes.count) * $0) }
        let state = Mutex<(acknowledged: ClosedRange<Int>, chunks: Int, cut: Bool, cutError: (any Error)?)>((0...0, 0, false, nil))
        let bench = self.bench
        let start = bench.clock.now
        do {
            let report = try await client.upload(image.bytes, firstTimeout: firstChunkTimeout, chunkTimeout: requestTimeout) { chunk in
                let cutNow = state.withLock { state -> Bool in
                    state.acknowledged = chunk.answered...max(chunk.answered, chunk.sentEnd)
                    state.chunks += 1
                    guard let threshold, !state.cut, chunk.answered >= threshold else { return false }
                    state.cut = true
                    return true
                }
                guard cutNow else { return }
                bench.mark(.update, "upload cut at offset \(chunk.answered) of \(image.bytes.count) (\(Int((fraction ?? 0) * 100))%)")
                do {
                    try await cut()
                } catch {
                    state.withLock { $0.cutError = error }
                }
            }
            if let error = state.withLock({ $0.cutError }) { throw error }
            record(report, from: start)
            return (report, state.withLock { $0.acknowledged })
        } catch let error as MCUmgrError {
            if let cutError = state.withLock({ $0.cutError }) { throw cutError }
            let (acknowledged, chunks) = state.withLock { ($0.acknowledged, $0.chunks) }
            guard threshold != nil else { throw error }
            bench.mark(.update, "upload of \(chunks) chunks to offset \(acknowledged.lowerBound) (\(acknowledged.upperBound) sent) of \(image.bytes.count), ended by the cut: \(error)",
                       duration: start.duration(to: bench.clock.now))
            return (nil, acknowledged)
        }
    }

    /// Puts a completed upload on the timeline (its chunks summarised, where it started) and records its throughput.
    func record(_ report: MCUmgrUploadReport, from start: ContinuousClock.Instant) {
        let first = report.chunks.first.map { "from offset \($0.offset), device answered \($0.answered)" } ?? "no chunks"
        let sizes = Set(report.chunks.map(\.length)).sorted()
        bench.mark(.update, "upload of \(report.imageLength) octets in \(report.chunks.count) chunks of \(sizes.map(String.init).joined(separator: "/")) octets, \(first)",
                   duration: start.duration(to: bench.clock.now))
        bench.measure("upload throughput", value: (report.bitsPerSecond / 1000 * 10).rounded() / 10, unit: "kbit/s")
    }

    /// Asks the device to reset over MCUmgr and waits for it to advertise again; returns the new link and client.
    func reset(_ client: MCUmgrClient) async throws -> (LEConnection, MCUmgrClient) {
        try await client.reset()
        bench.mark(.update, "MCUmgr reset answered")
        _ = try? await client.link.waitForDisconnection(timeout: bench.rig.budgets.reconnect)
        return try await open(within: comeBack)
    }

    /// Cuts the accessory's power and restores it; returns the new link and client once it advertises again.
    func powerCycle() async throws -> (LEConnection, MCUmgrClient) {
        try await bench.power(false)
        try await bench.power(true)
        return try await open(within: comeBack)
    }
}

extension FirmwareUpdateSteps {
    /// Connects once the accessory is settled: a pending image or an unconfirmed running one (left by an earlier
    /// case) is resolved by resets first, as MCUboot resolves them.
    func settled() async throws -> (LEConnection, MCUmgrClient) {
        var (link, client) = try await open(within: comeBack)
        for _ in 0..<2 {
            let states = try await running(client).states
            guard states.contains(where: { $0.pending || ($0.active && !$0.confirmed) }) else { break }
            bench.mark(.update, "settling the slots left by an earlier case: \(states.map { "slot \($0.slot) \($0.version)\($0.pending ? " pending" : "")\($0.confirmed ? " confirmed" : "")" }.joined(separator: ", "))")
            (link, client) = try await reset(client)
        }
        return (link, client)
    }

    /// Uploads the whole image without a cut; the device must not say its hash did not match.
    func uploadWhole(_ image: MCUbootImage, with client: MCUmgrClient) async throws {
        let start = bench.clock.now
        let report = try await client.upload(image.bytes, firstTimeout: firstChunkTimeout, chunkTimeout: requestTimeout)
        record(report, from: start)
    }

    /// Uploads `image` again after a cut: the device's answer to the first request must lie between the offset it had
    /// acknowledged before the cut (when it had acknowledged any) and the end of the data sent then (requests in
    /// flight it may have taken), and each later chunk starts where the device said or right after those in flight.
    @discardableResult
    func resume(_ image: MCUbootImage, with client: MCUmgrClient, acknowledged: ClosedRange<Int>) async throws -> MCUmgrUploadReport {
        let start = bench.clock.now
        let report = try await client.upload(image.bytes, firstTimeout: firstChunkTimeout, chunkTimeout: requestTimeout)
        record(report, from: start)
        guard let first = report.firstAnswer else { throw FirmwareUpdateFailure("the resumed upload sent no chunk") }
        bench.mark(.update, "resume: the device answered offset \(first) to the upload's first request; it had acknowledged \(acknowledged.lowerBound) before the cut, with data to \(acknowledged.upperBound) sent")
        if acknowledged.lowerBound > 0 && !acknowledged.contains(first) {
            let what = first < acknowledged.lowerBound ? "behind what it had acknowledged (\(first == report.chunks.first?.length ? "it started over" : "it lost part"))" : "past the data it had been sent"
            throw FirmwareUpdateFailure("after the cut the device answered offset \(first) to the upload's first request, \(what): it had acknowledged \(acknowledged.lowerBound) of \(image.bytes.count) octets, with data to \(acknowledged.upperBound) sent")
        }
        for (previous, next) in zip(report.chunks, report.chunks.dropFirst()) where next.offset != previous.answered {
            throw FirmwareUpdateFailure("the chunk after the device's answer \(previous.answered) went from offset \(next.offset)")
        }
        return report
    }

    /// Checks that the active image is `hash`, confirmed or not; a product failure naming `context` otherwise.
    func expectRunning(_ hash: [UInt8], confirmed: Bool, on client: MCUmgrClient, _ context: String) async throws {
        let states = try await running(client).states
        guard let active = states.first(where: \.active), active.hash == hash, active.confirmed == confirmed else {
            throw FirmwareUpdateFailure("\(context): expected the \(confirmed ? "confirmed" : "unconfirmed") image \(hex(hash)) active, the device lists \(describe(states))")
        }
        bench.mark(.update, "running \(active.version) (\(confirmed ? "confirmed" : "on test"))")
    }

    /// Uploads `image`, tests it and resets, and checks that the device refused it (at the upload's end, at `test`,
    /// or at the reset, when MCUboot erases it) and came back on the `previous` image, confirmed, with `image`
    /// neither pending nor active; puts the slots that came back on the timeline. `what` names the image.
    func expectNeverRun(_ image: MCUbootImage, _ what: String, with link: LEConnection, _ client: MCUmgrClient, previous: [UInt8]) async throws {
        var (link, client) = (link, client)
        do {
            try await uploadWhole(image, with: client)
            _ = try await client.test(hash: image.hash)
            bench.mark(.update, "the device took \(what) for test; MCUboot must refuse it at the reset")
            (link, client) = try await reset(client)
        } catch MCUmgrError.refused(let failure, let request) {
            bench.mark(.update, "the device refused \(request): \(failure)")
        }
        let states = try await running(client).states
        bench.mark(.update, "came back with \(describe(states))")
        try await expectRunning(previous, confirmed: true, on: client, "\(what) was run")
        #expect(!states.contains { $0.hash == image.hash && ($0.pending || $0.active) }, "\(what) is still pending: \(describe(states))")
        _ = try? await link.disconnect()
    }

    /// The slots as a line: `slot 0 1.0.0 active confirmed, slot 1 2.3.4 pending`.
    func describe(_ states: [MCUmgrImageState]) -> String {
        states.map { "slot \($0.slot) \($0.version)\($0.active ? " active" : "")\($0.confirmed ? " confirmed" : "")\($0.pending ? " pending" : "")" }
            .joined(separator: ", ")
    }

    /// Tests the uploaded image, resets (it runs unconfirmed), confirms it and resets again (it stays); returns the last link.
    func testThenConfirm(_ image: MCUbootImage, with client: MCUmgrClient, previous: [UInt8]) async throws -> (LEConnection, MCUmgrClient) {
        _ = try await client.test(hash: image.hash)
        var (link, client) = try await reset(client)
        try await expectRunning(image.hash, confirmed: false, on: client, "after the reset that swapped the test image in")
        _ = try await client.confirm(hash: image.hash)
        (link, client) = try await reset(client)
        try await expectRunning(image.hash, confirmed: true, on: client, "the confirmed image did not stay")
        return (link, client)
    }

    func hex(_ bytes: [UInt8]) -> String { bytes.prefix(4).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "…" }
}
