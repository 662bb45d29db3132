/// The requests of an image upload in flight at once, matched to the device's answers by the SMP header's sequence
/// number, as windowed uploads do (Nordic's mcumgr library: its window capacity): chunks go out back to back from
/// the offset the device will hold once it has taken those before them, and each answer says what it holds.
///
/// The device is modelled as Zephyr's image manager behaves: it takes requests in the order they were written, a
/// chunk at the offset it holds advances it by the chunk's length, and one at another offset is dropped and
/// answered with the offset it holds. An answer that differs from that model is the device's word: the upload goes
/// on from it (chunks still in flight at other offsets are answered without progress). Offsets only ever come from
/// the device's answers: a request at offset 0 (the first, or after the device answered 0) carries the image's
/// length and SHA-256 and goes alone, because its answer may be an offset the device already holds; nothing goes
/// past what the device answered plus the chunks in flight behind it.
struct MCUmgrUploadWindow {
    /// One upload request in flight.
    struct Request: Sendable, Hashable {
        var sequence: UInt8
        var offset: Int
        var length: Int
        var sent: ContinuousClock.Instant
        /// How long its answer is awaited, from `sent`.
        var timeout: Duration
        var deadline: ContinuousClock.Instant { sent + timeout }
        var end: Int { offset + length }
    }

    let imageLength: Int
    /// How many requests may be in flight at once (1: each answer awaited before the next request).
    let capacity: Int
    /// In the order sent, which is the order the device answers.
    private(set) var outstanding: [Request] = []
    /// The offset the device answered last (0 before any answer).
    private(set) var acknowledged = 0
    /// Whether the device has answered at all.
    private(set) var answered = false
    /// The highest end of the data sent so far: no device holds more.
    private(set) var sentEnd = 0
    /// Sequences answered or passed over lately: one of them answered again is out of order.
    private var retired: [UInt8] = []
    private var restarts = 0

    init(imageLength: Int, capacity: Int) {
        self.imageLength = imageLength
        self.capacity = max(1, capacity)
    }

    /// The device holds the whole image and nothing is in flight.
    var finished: Bool { answered && acknowledged == imageLength && outstanding.isEmpty }

    /// Where the next chunk starts: the offset the device will hold once it has taken what is in flight.
    var next: Int { Self.held(after: outstanding[...], from: acknowledged) }

    /// Whether another request may go now.
    var canSend: Bool {
        guard !finished, !outstanding.contains(where: { $0.offset == 0 }) else { return false }
        if next == 0 { return outstanding.isEmpty }
        return next < imageLength && outstanding.count < capacity
    }

    /// The offset a device that holds `offset` holds after taking `requests` in order.
    static func held(after requests: ArraySlice<Request>, from offset: Int) -> Int {
        requests.reduce(offset) { held, request in request.offset == held ? request.end : held }
    }

    mutating func sent(_ request: Request) {
        outstanding.append(request)
        retired.removeAll { $0 == request.sequence }
        sentEnd = max(sentEnd, request.end)
    }

    /// Takes the device's answer `offset` to the request with `sequence`: returns that request and those before it
    /// whose answers it passed over (lost: the device's answer to a later one says what it holds). A sequence not
    /// in flight is `.outOfOrder` when it was answered or passed over lately, `.unknownSequence` otherwise; an
    /// answer past the image or the data sent, one that goes back, one that does not advance the chunk at the
    /// offset the device held, and a fourth restart from 0 are violations.
    mutating func take(_ offset: Int, sequence: UInt8) throws(MCUmgrError) -> (request: Request, passedOver: [Request]) {
        let awaited = outstanding.first.map { "image upload response to offset \($0.offset) (sequence \($0.sequence))" } ?? "no image upload response"
        guard let index = outstanding.firstIndex(where: { $0.sequence == sequence }) else {
            if retired.contains(sequence) {
                throw .outOfOrder(sequence: sequence, awaited: awaited)
            }
            throw .unknownSequence(sequence, outstanding: outstanding.map(\.sequence), awaited: awaited)
        }
        let request = outstanding[index]
        let heldBefore = Self.held(after: outstanding[..<index], from: acknowledged)
        let expected = Self.held(after: outstanding[index...index], from: heldBefore)
        guard offset <= imageLength else {
            throw .violation("the device answered offset \(offset) to the chunk at \(request.offset), past the image's \(imageLength) octets")
        }
        if request.offset != 0 {
            let bound = outstanding[...index].map(\.end).max() ?? request.end
            guard offset <= bound else {
                throw .violation("the device answered offset \(offset) to the chunk at \(request.offset), past the \(bound) octets sent so far")
            }
        }
        if offset == 0 && answered && expected != 0 {
            restarts += 1
            guard restarts <= 3 else { throw .violation("the device answered offset 0 for the \(restarts)th time: the upload never advances") }
        } else if answered && offset < acknowledged {
            throw .violation("the device answered offset \(offset) to the chunk at \(request.offset), back from the \(acknowledged) it had answered")
        } else if answered && request.offset == heldBefore && offset == request.offset {
            throw .violation("the device answered offset \(offset) to the chunk at \(request.offset) (\(request.length) octets): no progress")
        }
        let passedOver = Array(outstanding[..<index])
        retired += outstanding[...index].map(\.sequence)
        retired = Array(retired.suffix(32))
        outstanding.removeFirst(index + 1)
        acknowledged = offset
        answered = true
        return (request, passedOver)
    }
}
