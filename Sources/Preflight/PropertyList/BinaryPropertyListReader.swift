import Foundation

/// Reads a binary property list (`bplist00`), as laid out in CoreFoundation's `CFBinaryPList.c`: objects,
/// an offset table and a 32-byte trailer. Every count, offset and reference is checked against the file;
/// a fault names the object, its byte offset and what is wrong. Containers are walked with an explicit
/// stack (no recursion), references that loop back are refused, and `ReaderLimits` bound the depth, the
/// values reached and the string sizes.
struct BinaryPropertyListReader {
    private let bytes: [UInt8]
    private let file: String
    private let limits: ReaderLimits
    private var offsetSize = 0
    private var referenceSize = 0
    private var objectCount = 0
    private var tableOffset = 0
    private var valuesReached = 0

    /// Parses `data`, which starts with `bplist`; `file` names it in errors.
    static func read(_ data: Data, file: String, limits: ReaderLimits) throws(PreflightError) -> PropertyListNode {
        var reader = BinaryPropertyListReader(bytes: [UInt8](data), file: file, limits: limits)
        let top = try reader.readTrailer()
        return try reader.tree(from: top)
    }

    // MARK: Errors

    private func fail(_ message: String) -> PreflightError {
        .propertyList(file: file, message: "binary property list: \(message)")
    }

    private func fail(object: Int, at offset: Int, _ message: String) -> PreflightError {
        fail("object \(object) at offset \(hex(offset)): \(message)")
    }

    private func hex(_ value: some BinaryInteger) -> String { "0x" + String(value, radix: 16) }

    private var fileSize: String { "file is \(bytes.count) bytes" }

    // MARK: Trailer and offsets

    /// Big-endian unsigned integer of `size` bytes at `offset`, nil when it runs past the end.
    private func unsigned(at offset: Int, size: Int) -> UInt64? {
        guard offset >= 0, size >= 0, offset <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }

    /// Reads the trailer; returns the top object's number.
    private mutating func readTrailer() throws(PreflightError) -> Int {
        guard bytes.count >= 8 + 32 else { throw fail("\(bytes.count) bytes is too short for a header and a trailer (32 bytes)") }
        guard bytes.starts(with: Array("bplist00".utf8)) else {
            let version = String(decoding: bytes[6..<8], as: UTF8.self)
            throw fail("version '\(version)' at offset 0x6 is not supported (only bplist00)")
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize) else {
            throw fail("trailer at offset \(hex(trailer)): offset size \(offsetSize) is not 1 to 8 bytes")
        }
        guard (1...8).contains(referenceSize) else {
            throw fail("trailer at offset \(hex(trailer)): object reference size \(referenceSize) is not 1 to 8 bytes")
        }
        let count = unsigned(at: trailer + 8, size: 8) ?? 0
        let top = unsigned(at: trailer + 16, size: 8) ?? 0
        let table = unsigned(at: trailer + 24, size: 8) ?? 0
        guard count >= 1, count <= UInt64(trailer) else {
            throw fail("trailer at offset \(hex(trailer)): object count \(hex(count)) is not 1 to \(hex(trailer)) (\(fileSize))")
        }
        guard top < count else { throw fail("trailer at offset \(hex(trailer)): top object \(hex(top)) is not below the object count \(count)") }
        guard table >= 9, table < UInt64(trailer), count <= (UInt64(trailer) - table) / UInt64(offsetSize) else {
            throw fail("trailer at offset \(hex(trailer)): offset table at \(hex(table)) with \(count) offsets of \(offsetSize) bytes does not fit between the header and the trailer (\(fileSize))")
        }
        objectCount = Int(count)
        tableOffset = Int(table)
        return Int(top)
    }

    /// Where object `object` starts, checked to lie between the header and the offset table.
    private func offset(of object: Int) throws(PreflightError) -> Int {
        let entry = tableOffset + object * offsetSize
        let value = unsigned(at: entry, size: offsetSize) ?? 0
        guard value >= 8, value < UInt64(tableOffset) else {
            throw fail("offset table entry \(object) at offset \(hex(entry)): object offset \(hex(value)) is outside \(hex(8))..<\(hex(tableOffset)) (\(fileSize))")
        }
        return Int(value)
    }

    // MARK: Objects

    /// A container being read: its references, and the values read so far.
    private struct Container {
        let object: Int
        let isDictionary: Bool
        let keys: [String]
        let references: [Int]
        var next = 0
        var items: [PropertyListNode] = []
        var entries: [String: PropertyListNode] = [:]

        mutating func add(_ node: PropertyListNode) {
            if isDictionary { entries[keys[next - 1]] = node } else { items.append(node) }
        }

        var node: PropertyListNode { PropertyListNode(isDictionary ? .dictionary(entries) : .array(items)) }
    }

    private enum Parsed {
        case value(PropertyListValue)
        case container(Container)
    }

    /// Builds the tree from object `top`, containers with an explicit stack.
    private mutating func tree(from top: Int) throws(PreflightError) -> PropertyListNode {
        var stack: [Container] = []
        var open: Set<Int> = []  // containers on the stack: a reference to one is a loop
        switch try parse(top) {
        case .value(let value): return PropertyListNode(value)
        case .container(let container):
            stack.append(container)
            open.insert(top)
        }
        while var container = stack.popLast() {
            if container.next < container.references.count {
                let reference = container.references[container.next]
                container.next += 1
                guard !open.contains(reference) else {
                    throw fail(object: container.object, at: try offset(of: container.object), "refers to object \(reference), which contains it (a loop)")
                }
                switch try parse(reference) {
                case .value(let value):
                    container.add(PropertyListNode(value))
                    stack.append(container)
                case .container(let inner):
                    guard stack.count + 2 <= limits.nestingDepth else {
                        throw .limit("containers nested \(stack.count + 2) deep", limit: "nestingDepth", value: limits.nestingDepth,
                                     file: file, location: "byte \(hex(try offset(of: reference)))", path: (stack + [container]).map { "object \($0.object)" })
                    }
                    stack.append(container)
                    stack.append(inner)
                    open.insert(reference)
                }
            } else {
                open.remove(container.object)
                guard var parent = stack.popLast() else { return container.node }
                parent.add(container.node)
                stack.append(parent)
            }
        }
        throw fail("no top object")  // not reached: the loop returns when the top container is finished
    }

    /// Reads object `object`: a value, or a container whose references are checked but not yet followed.
    private mutating func parse(_ object: Int) throws(PreflightError) -> Parsed {
        valuesReached += 1
        let at = try offset(of: object)
        guard valuesReached <= limits.values else {
            throw .limit("value number \(valuesReached)", limit: "values", value: limits.values, file: file, location: "byte \(hex(at))")
        }
        let marker = bytes[at]
        let low = Int(marker & 0x0F)
        func bad(_ message: String) -> PreflightError { fail(object: object, at: at, message) }
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .value(.bool(false))
            case 0x09: return .value(.bool(true))
            default: throw bad("marker \(hex(marker)) (null or fill) is not a property list value")
            }
        case 0x1:
            return .value(.integer(try integer(at: at, object: object)))
        case 0x2:
            guard low == 2 || low == 3 else { throw bad("real of \(1 << low) bytes (marker \(hex(marker))): only 4 or 8") }
            guard let raw = unsigned(at: at + 1, size: 1 << low) else { throw bad("real of \(1 << low) bytes runs past the end (\(fileSize))") }
            return .value(.real(low == 2 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw)))
        case 0x3:
            guard marker == 0x33 else { throw bad("date marker \(hex(marker)), expected 0x33") }
            guard let raw = unsigned(at: at + 1, size: 8) else { throw bad("date runs past the end (\(fileSize))") }
            return .value(.date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: raw))))
        case 0x4:
            let (count, start) = try length(at: at, object: object)
            return .value(.data(Data(try span(start, count, object: object, at: at))))
        case 0x5:
            let (count, start) = try length(at: at, object: object)
            let ascii = try span(start, count, object: object, at: at)
            if let byte = ascii.firstIndex(where: { $0 > 0x7F }) {
                throw bad("ASCII string holds byte \(hex(ascii[byte])) at offset \(hex(byte))")
            }
            return .value(.string(String(decoding: ascii, as: UTF8.self)))
        case 0x6:
            let (count, start) = try length(at: at, object: object)
            guard count <= Int.max / 2 else { throw bad("length \(hex(count)) UTF-16 units runs past the end (\(fileSize))") }
            let raw = try span(start, count * 2, object: object, at: at)
            let units = stride(from: raw.startIndex, to: raw.endIndex, by: 2).map { UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1]) }
            guard let text = String(validating: units, as: UTF16.self) else { throw bad("UTF-16 string holds an unpaired surrogate") }
            return .value(.string(text))
        case 0x8:
            guard let uid = unsigned(at: at + 1, size: low + 1) else { throw bad("UID runs past the end (\(fileSize))") }
            return .value(.integer(Int(truncatingIfNeeded: uid)))
        case 0xA, 0xC, 0xD:
            let isDictionary = marker >> 4 == 0xD
            let (count, start) = try length(at: at, object: object)
            let slots = isDictionary ? 2 : 1
            guard count <= (bytes.count - start) / (referenceSize * slots) else {
                throw bad("length \(hex(count)) runs past the end (\(fileSize))")
            }
            var references: [Int] = []
            references.reserveCapacity(count * slots)
            for index in 0..<(count * slots) {
                let value = unsigned(at: start + index * referenceSize, size: referenceSize) ?? 0
                guard value < UInt64(objectCount) else {
                    throw bad("reference \(index) is to object \(hex(value)), past the \(objectCount) objects")
                }
                references.append(Int(value))
            }
            guard isDictionary else { return .container(Container(object: object, isDictionary: false, keys: [], references: references)) }
            var keys: [String] = []
            keys.reserveCapacity(count)
            for key in references.prefix(count) {
                // Checked before parsing: a key that were a container could hold keys of its own, without end.
                let keyMarker = bytes[try offset(of: key)] >> 4
                guard keyMarker == 0x5 || keyMarker == 0x6, case .value(.string(let name)) = try parse(key) else {
                    throw bad("key object \(key) is not a string")
                }
                keys.append(name)
            }
            return .container(Container(object: object, isDictionary: true, keys: keys, references: Array(references.suffix(count))))
        default:
            throw bad("marker \(hex(marker)) is not a binary property list type")
        }
    }

    /// The integer object at `at` (marker 0x1n: 2^n bytes, big-endian; 8 bytes signed, 16 bytes to fit 64 bits).
    private func integer(at: Int, object: Int) throws(PreflightError) -> Int {
        let power = Int(bytes[at] & 0x0F)
        guard power <= 4 else { throw fail(object: object, at: at, "integer of 2^\(power) bytes: only 1, 2, 4, 8 or 16") }
        let size = 1 << power
        guard let raw = unsigned(at: at + 1, size: min(size, 8)),
              size < 16 || unsigned(at: at + 9, size: 8) != nil else {
            throw fail(object: object, at: at, "integer of \(size) bytes runs past the end (\(fileSize))")
        }
        if size == 16 {
            // The high 8 bytes first; CoreFoundation writes 16 bytes for unsigned values above Int64.max.
            guard let high = unsigned(at: at + 1, size: 8), let lowHalf = unsigned(at: at + 9, size: 8),
                  high == 0 && lowHalf <= UInt64(Int.max) || high == UInt64.max && lowHalf > UInt64(Int.max) else {
                throw fail(object: object, at: at, "16-byte integer does not fit 64 bits")
            }
            return Int(truncatingIfNeeded: lowHalf)
        }
        return size == 8 ? Int(truncatingIfNeeded: raw) : Int(raw)
    }

    /// A length from the marker's low nibble, or from the integer object after it when the nibble is 0xF;
    /// returns it and where the content starts.
    private func length(at: Int, object: Int) throws(PreflightError) -> (count: Int, start: Int) {
        let low = Int(bytes[at] & 0x0F)
        guard low == 0x0F else { return (low, at + 1) }
        guard at + 1 < bytes.count, bytes[at + 1] >> 4 == 0x1 else {
            throw fail(object: object, at: at, "length marker at offset \(hex(at + 1)) is not an integer")
        }
        let count = try integer(at: at + 1, object: object)
        guard count >= 0 else { throw fail(object: object, at: at, "length \(count) is negative") }
        return (count, at + 2 + (1 << Int(bytes[at + 1] & 0x0F)))
    }

    /// `count` bytes from `start`, within the file and `ReaderLimits.stringBytes`.
    private func span(_ start: Int, _ count: Int, object: Int, at: Int) throws(PreflightError) -> ArraySlice<UInt8> {
        guard start <= bytes.count, count <= bytes.count - start else {
            throw fail(object: object, at: at, "length \(hex(count)) runs past the end (\(fileSize))")
        }
        guard count <= limits.stringBytes else {
            throw .limit("a string or data of \(count) bytes", limit: "stringBytes", value: limits.stringBytes, file: file, location: "byte \(hex(at))")
        }
        return bytes[start..<(start + count)]
    }
}
