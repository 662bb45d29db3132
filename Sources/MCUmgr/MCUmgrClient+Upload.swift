import BluetoothCrypto
import CBOR

/// What an image upload did: each request's offset and data, the offset the device answered, and the time it took.
public struct MCUmgrUploadReport: Sendable, Hashable {
    /// One upload request and the device's answer.
    public struct Chunk: Sendable, Hashable {
        /// The offset the request carried.
        public var offset: Int
        /// The data it carried.
        public var length: Int
        /// The offset the device answered: where the next chunk starts.
        public var answered: Int
        /// The loop's clock when the request went and when the answer came.
        public var sent: ContinuousClock.Instant
        public var received: ContinuousClock.Instant
    }

    public var imageLength: Int
    public var chunks: [Chunk]
    /// Whether the device said the image's SHA-256 matched (nil: it did not say).
    public var match: Bool?

    /// The offset the device answered the first request with: the first chunk's end on a fresh upload, the
    /// offset it already had when it resumed one.
    public var firstAnswer: Int? { chunks.first?.answered }

    /// From the first request to the last answer, in seconds.
    public var seconds: Double {
        guard let first = chunks.first, let last = chunks.last else { return 0 }
        let duration = first.sent.duration(to: last.received)
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Image octets the device took per second, in bits: the data of each chunk it answered with the chunk's end
    /// (a resumed upload's first chunk, answered with the offset the device already held, moved nothing).
    public var bitsPerSecond: Double {
        let moved = chunks.reduce(0) { $0 + ($1.answered == $1.offset + $1.length ? $1.length : 0) }
        return seconds > 0 ? Double(moved) * 8 / seconds : 0
    }
}

extension MCUmgrClient {
    /// Uploads `image` (the file's bytes) to the secondary slot of `imageNumber` (`upgrade`: only if its version
    /// is above the running one's; both sent only when given, as smpclient sends them), in chunks as large as one write
    /// of ATT_MTU − 3 octets carries (as smpclient sizes them). The first request carries offset 0, the length
    /// and the image's SHA-256, which identifies the upload: a device that holds part of it answers with the
    /// offset it has, and the upload goes on from there. Every later chunk starts at the offset the device
    /// answered: never from 0 unless the device says so, and an answer past the image, or one that neither
    /// advances nor is 0, is a violation. Each answer is awaited `chunkTimeout` (`firstTimeout` for the first,
    /// which may wait for a slot erase), named with its offset.
    public func upload(_ image: [UInt8], imageNumber: Int? = nil, upgrade: Bool? = nil, firstTimeout: Duration = .seconds(40), chunkTimeout: Duration? = nil,
                       progress: @Sendable (MCUmgrUploadReport.Chunk) async -> Void = { _ in }) async throws(MCUmgrError) -> MCUmgrUploadReport {
        let sha: [UInt8]
        do {
            sha = try SHA256.digest(image)
        } catch {
            throw .violation("cannot hash the image: \(error)")
        }
        let loop = link.host.loop
        var report = MCUmgrUploadReport(imageLength: image.count, chunks: [], match: nil)
        var offset = 0
        var first = true
        var restarts = 0
        while first || offset < image.count {
            // Offset 0 (the start, or a device that answered 0: it starts over) carries what identifies the upload.
            let fields = offset == 0 ? MCUmgrRequest.Upload(offset: 0, length: image.count, sha: sha, image: imageNumber, upgrade: upgrade)
                                     : MCUmgrRequest.Upload(offset: offset)
            let maximum = await link.gatt.mtu - 3
            guard let probe = MCUmgrRequest.upload(of: image, fields, maximum: maximum, sequence: 0),
                  let length = probe.body["data"]?.bytes?.count else {
                throw .mtuTooSmall(mtu: maximum + 3, request: "an upload request at offset \(offset)")
            }
            let awaited = "image upload response to offset \(fields.offset)"
            let sent = loop.now
            let response = try await request(awaited, timeout: offset == 0 ? firstTimeout : chunkTimeout) { sequence in
                var chunk = probe
                chunk.header.sequence = sequence
                return chunk
            }
            let answer: MCUmgrUploadProgress
            do throws(MCUmgrMessageError) {
                answer = try MCUmgrUploadProgress(response.body)
            } catch {
                throw .malformed(error, awaited: awaited)
            }
            guard answer.offset <= image.count else {
                throw .violation("the device answered offset \(answer.offset) to the chunk at \(fields.offset), past the image's \(image.count) octets")
            }
            guard first || answer.offset > fields.offset || answer.offset == 0 else {
                throw .violation("the device answered offset \(answer.offset) to the chunk at \(fields.offset) (\(length) octets): no progress")
            }
            if !first && answer.offset == 0 {
                restarts += 1
                guard restarts <= 3 else { throw .violation("the device answered offset 0 for the \(restarts)th time: the upload never advances") }
            }
            let chunk = MCUmgrUploadReport.Chunk(offset: fields.offset, length: length, answered: answer.offset, sent: sent, received: loop.now)
            report.chunks.append(chunk)
            await progress(chunk)
            if let match = answer.match {
                report.match = match
                guard match else { throw .refused(.returnCode(.corrupt, reason: "the device's SHA-256 of the upload did not match"), request: "the upload") }
            }
            offset = answer.offset
            first = false
        }
        return report
    }
}
