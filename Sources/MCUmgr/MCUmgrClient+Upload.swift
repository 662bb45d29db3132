import BluetoothCrypto
import CBOR

/// What an image upload did: each request's offset and data, the offset the device answered, and the time it took.
package struct MCUmgrUploadReport: Sendable, Hashable {
    /// One upload request and the device's answer.
    package struct Chunk: Sendable, Hashable {
        /// The offset the request carried.
        package var offset: Int
        /// The data it carried.
        package var length: Int
        /// The offset the device answered: where the next chunk starts.
        package var answered: Int
        /// The loop's clock when the request went and when the answer came.
        package var sent: ContinuousClock.Instant
        package var received: ContinuousClock.Instant
        /// The end of the image data sent when the answer came: with requests still in flight behind it, the
        /// device may hold up to this much (a device cut off then may resume from anywhere from `answered` to here).
        package var sentEnd: Int
    }

    package var imageLength: Int
    package var chunks: [Chunk]
    /// Whether the device said the image's SHA-256 matched (nil: it did not say).
    package var match: Bool?

    /// The offset the device answered the first request with: the first chunk's end on a fresh upload, the
    /// offset it already had when it resumed one.
    package var firstAnswer: Int? { chunks.first?.answered }

    /// From the first request to the last answer, in seconds.
    package var seconds: Double {
        guard let first = chunks.first, let last = chunks.last else { return 0 }
        let duration = first.sent.duration(to: last.received)
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Image octets the device took per second, in bits: the data of each chunk it answered with the chunk's end
    /// (a resumed upload's first chunk, answered with the offset the device already held, moved nothing).
    package var bitsPerSecond: Double {
        let moved = chunks.reduce(0) { $0 + ($1.answered == $1.offset + $1.length ? $1.length : 0) }
        return seconds > 0 ? Double(moved) * 8 / seconds : 0
    }
}

extension MCUmgrClient {
    /// Uploads `image` (the file's bytes) to the secondary slot of `imageNumber` (`upgrade`: only if its version
    /// is above the running one's; both sent only when given, as smpclient sends them), in chunks as large as one write
    /// of ATT_MTU − 3 octets carries (as smpclient sizes them), up to `window` requests in flight at once, each
    /// answer matched to its request by sequence number (`MCUmgrUploadWindow`). The first request carries offset
    /// 0, the length and the image's SHA-256, which identifies the upload, and goes alone: a device that holds
    /// part of it answers with the offset it has, and the upload goes on from there. Every later chunk starts at
    /// the offset the device answered, or right after the chunks in flight behind it: never from 0 unless the
    /// device says so, never past it; an answer past the image or the data sent, one that goes back or does not
    /// advance, and one out of order or for an unknown sequence end the upload. Each answer is awaited
    /// `chunkTimeout` (`firstTimeout` for a request at offset 0, which may wait for a slot erase) from when its
    /// request went, named with its offset.
    package func upload(_ image: [UInt8], imageNumber: Int? = nil, upgrade: Bool? = nil, window: Int = 4, firstTimeout: Duration = .seconds(40),
                       chunkTimeout: Duration? = nil,
                       progress: @Sendable (MCUmgrUploadReport.Chunk) async -> Void = { _ in }) async throws(MCUmgrError) -> MCUmgrUploadReport {
        let sha: [UInt8]
        do {
            sha = try SHA256.digest(image)
        } catch {
            throw .violation("cannot hash the image: \(error)")
        }
        let loop = link.host.loop
        var report = MCUmgrUploadReport(imageLength: image.count, chunks: [], match: nil)
        var plan = MCUmgrUploadWindow(imageLength: image.count, capacity: window)
        while !plan.finished {
            while plan.canSend {
                let offset = plan.next
                // Offset 0 (the start, or a device that answered 0: it starts over) carries what identifies the upload.
                let fields = offset == 0 ? MCUmgrRequest.Upload(offset: 0, length: image.count, sha: sha, image: imageNumber, upgrade: upgrade)
                                         : MCUmgrRequest.Upload(offset: offset)
                let maximum = await link.gatt.mtu - 3
                let sequence = nextSequence()
                guard let message = MCUmgrRequest.upload(of: image, fields, maximum: maximum, sequence: sequence),
                      let length = message.body["data"]?.bytes?.count else {
                    throw .mtuTooSmall(mtu: maximum + 3, request: "an upload request at offset \(offset)")
                }
                let sent = loop.now
                try await send(message)
                plan.sent(.init(sequence: sequence, offset: offset, length: length, sent: sent,
                                timeout: offset == 0 ? firstTimeout : chunkTimeout ?? timeout))
            }
            guard let oldest = plan.outstanding.first else {
                throw .violation("the upload stopped at offset \(plan.acknowledged) of \(image.count) with nothing in flight")
            }
            let awaited = "image upload response to offset \(oldest.offset)"
            let received = await receive(until: oldest.deadline)
            guard case .message(let response) = received else { throw await missed(received, awaited: awaited, timeout: oldest.timeout) }
            guard response.header.group == .image, response.header.command == MCUmgrCommand.upload,
                  response.header.operation == .writeResponse else {
                throw .unknownSequence(response.header.sequence, outstanding: plan.outstanding.map(\.sequence),
                                       awaited: "\(awaited), not a \(response.header.group) command \(response.header.command) response")
            }
            try Self.check(response, request: "the upload", awaited: awaited)
            let answer: MCUmgrUploadProgress
            do throws(MCUmgrMessageError) {
                answer = try MCUmgrUploadProgress(response.body)
            } catch {
                throw .malformed(error, awaited: awaited)
            }
            let (request, _) = try plan.take(answer.offset, sequence: response.header.sequence)
            let chunk = MCUmgrUploadReport.Chunk(offset: request.offset, length: request.length, answered: answer.offset,
                                                 sent: request.sent, received: loop.now, sentEnd: plan.sentEnd)
            report.chunks.append(chunk)
            await progress(chunk)
            if let match = answer.match {
                report.match = match
                guard match else { throw .refused(.returnCode(.corrupt, reason: "the device's SHA-256 of the upload did not match"), request: "the upload") }
            }
        }
        return report
    }
}
