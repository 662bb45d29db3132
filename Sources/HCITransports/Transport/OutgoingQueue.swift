/// The packets a file-descriptor transport has accepted but the kernel has not yet taken, oldest first,
/// with how much of the oldest is already written.
struct OutgoingQueue {
    struct Entry {
        let bytes: [UInt8]
        var written: Int
        /// The packet, for the stall message ("ACL data, handle 0x0040, 27 bytes").
        let description: String
    }

    private var entries: [Entry] = []
    private var start = 0
    /// Bytes not yet written, over all entries.
    private(set) var byteCount = 0
    /// The last write failed with ENOBUFS (a packet socket's buffer was full).
    private(set) var lastWriteHadNoBuffers = false

    var isEmpty: Bool { start == entries.count }
    var head: Entry? { isEmpty ? nil : entries[start] }

    mutating func append(_ bytes: [UInt8], written: Int, describing description: String, noBuffers: Bool = false) {
        entries.append(Entry(bytes: bytes, written: written, description: description))
        byteCount += bytes.count - written
        if noBuffers { lastWriteHadNoBuffers = true }
    }

    mutating func advanceHead(to written: Int) {
        guard !isEmpty else { return }
        byteCount -= written - entries[start].written
        entries[start].written = written
        lastWriteHadNoBuffers = false
    }

    mutating func removeHead() {
        guard let head else { return }
        byteCount -= head.bytes.count - head.written
        start += 1
        lastWriteHadNoBuffers = false
        if start == entries.count {
            entries.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 64 && start * 2 >= entries.count {
            entries.removeFirst(start)
            start = 0
        }
    }

    mutating func noteNoBuffers(_ noBuffers: Bool) { lastWriteHadNoBuffers = noBuffers }

    /// "3 packets queued; 12 of 31 bytes of ACL data … written".
    func describeHead() -> String {
        guard let head else { return "nothing queued" }
        let count = entries.count - start
        return "\(count) packet\(count == 1 ? "" : "s") queued; \(head.written) of \(head.bytes.count) bytes of \(head.description) written"
    }
}
