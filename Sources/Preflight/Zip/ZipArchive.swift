import Foundation

/// A read-only zip archive (APK, IPA): the central directory, and entries extracted on demand.
///
/// Supports stored (method 0) and deflated (method 8) entries and ZIP64 sizes and offsets. Checks the
/// CRC-32 and size of what it extracts. Truncated or inconsistent archives throw
/// `PreflightError.zip`; nothing is trusted that was not bounds-checked. `ReaderLimits` bound the entry
/// count, each entry's compressed and uncompressed size, and a deflated entry's compression ratio (zip bombs).
package struct ZipArchive: Sendable {
    /// One entry of the central directory.
    package struct Entry: Sendable, Hashable {
        /// The path inside the archive (`Payload/App.app/Info.plist`).
        package let path: String
        /// 0 stored, 8 deflated; others cannot be extracted.
        package let method: UInt16
        package let crc32: UInt32
        package let compressedSize: UInt64
        package let uncompressedSize: UInt64
        let localHeaderOffset: UInt64
        let flags: UInt16
    }

    /// The entries, in central-directory order.
    package let entries: [Entry]
    private let reader: ByteReader
    private let file: String
    private let limits: ReaderLimits

    /// True when `data` starts like a zip archive (a local file header, or an empty archive's end record).
    package static func looksLikeZip(_ data: Data) -> Bool {
        data.starts(with: [0x50, 0x4B, 0x03, 0x04]) || data.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }

    /// Reads the central directory of the archive in `data`; `file` names it in errors.
    package init(_ data: Data, file: String, limits: ReaderLimits = .standard) throws(PreflightError) {
        self.reader = ByteReader(data)
        self.file = file
        self.limits = limits
        let reader = self.reader
        func fail(_ message: String) -> PreflightError { .zip(file: file, message: message) }

        // The end-of-central-directory record: 22 bytes plus a comment of up to 65535, searched from the end.
        guard reader.count >= 22 else { throw fail("\(reader.count) bytes is too short for a zip archive (truncated?)") }
        var eocd: Int?
        var candidate = reader.count - 22
        let lowest = max(0, reader.count - 22 - 65_535)
        while candidate >= lowest {
            if reader.u32(candidate) == 0x0605_4B50,
               let commentLength = reader.u16(candidate + 20),
               candidate + 22 + Int(commentLength) == reader.count {
                eocd = candidate
                break
            }
            candidate -= 1
        }
        guard let eocd else { throw fail("no end-of-central-directory record (the file is truncated or not a zip archive)") }
        guard let diskNumber = reader.u16(eocd + 4), let cdDisk = reader.u16(eocd + 6),
              let count16 = reader.u16(eocd + 10), let size32 = reader.u32(eocd + 12), let offset32 = reader.u32(eocd + 16)
        else { throw fail("truncated end-of-central-directory record") }
        var entryCount = UInt64(count16)
        var directorySize = UInt64(size32)
        var directoryOffset = UInt64(offset32)
        let saturated = count16 == 0xFFFF || size32 == 0xFFFF_FFFF || offset32 == 0xFFFF_FFFF
        let hasLocator = eocd >= 20 && reader.u32(eocd - 20) == 0x0706_4B50
        if saturated || hasLocator {
            // ZIP64: a locator just before the end record points at the ZIP64 end record, whose values win.
            guard hasLocator, let recordOffset = reader.u64(eocd - 20 + 8),
                  let record = Int(exactly: recordOffset), reader.u32(record) == 0x0606_4B50,
                  let count64 = reader.u64(record + 32), let size64 = reader.u64(record + 40), let offset64 = reader.u64(record + 48)
            else { throw fail("ZIP64 end-of-central-directory record missing or truncated") }
            entryCount = count64
            directorySize = size64
            directoryOffset = offset64
        } else if diskNumber != 0 || cdDisk != 0 {
            throw fail("multi-part (spanned) archives are not supported")
        }
        guard directoryOffset <= UInt64(reader.count), directorySize <= UInt64(reader.count) - directoryOffset else {
            throw fail("central directory at offset \(directoryOffset) (\(directorySize) bytes) lies past the end of the \(reader.count)-byte file (truncated?)")
        }
        guard entryCount <= directorySize / 46 else {
            throw fail("central directory claims \(entryCount) entries but has room for \(directorySize / 46)")
        }
        guard entryCount <= UInt64(limits.zipEntries) else {
            throw .limit("\(entryCount) entries", limit: "zipEntries", value: limits.zipEntries, file: file,
                         location: "byte \(directoryOffset)", path: ["central directory"])
        }

        var entries: [Entry] = []
        var cursor = Int(directoryOffset)
        for index in 0..<Int(entryCount) {
            guard reader.u32(cursor) == 0x0201_4B50 else {
                throw fail("central directory entry \(index) at offset \(cursor) has a bad signature")
            }
            guard let flags = reader.u16(cursor + 8), let method = reader.u16(cursor + 10),
                  let crc = reader.u32(cursor + 16), let compressed32 = reader.u32(cursor + 20),
                  let uncompressed32 = reader.u32(cursor + 24), let nameLength = reader.u16(cursor + 28),
                  let extraLength = reader.u16(cursor + 30), let commentLength = reader.u16(cursor + 32),
                  let localOffset32 = reader.u32(cursor + 42),
                  let nameData = reader.bytes(cursor + 46, count: Int(nameLength)),
                  let extra = reader.bytes(cursor + 46 + Int(nameLength), count: Int(extraLength))
            else { throw fail("central directory entry \(index) at offset \(cursor) is truncated") }
            var compressed = UInt64(compressed32), uncompressed = UInt64(uncompressed32), localOffset = UInt64(localOffset32)
            if compressed32 == 0xFFFF_FFFF || uncompressed32 == 0xFFFF_FFFF || localOffset32 == 0xFFFF_FFFF {
                // The ZIP64 extra field (0x0001) holds, in order, only the fields saturated above.
                let extraReader = ByteReader(extra)
                var at = 0
                var found = false
                while at + 4 <= extraReader.count, let tag = extraReader.u16(at), let size = extraReader.u16(at + 2) {
                    if tag == 0x0001 {
                        var field = at + 4
                        func next() -> UInt64? {
                            defer { field += 8 }
                            return field + 8 <= at + 4 + Int(size) ? extraReader.u64(field) : nil
                        }
                        if uncompressed32 == 0xFFFF_FFFF { guard let value = next() else { break }; uncompressed = value }
                        if compressed32 == 0xFFFF_FFFF { guard let value = next() else { break }; compressed = value }
                        if localOffset32 == 0xFFFF_FFFF { guard let value = next() else { break }; localOffset = value }
                        found = true
                        break
                    }
                    at += 4 + Int(size)
                }
                guard found else { throw fail("entry \(index) needs a ZIP64 extra field and has none") }
            }
            // Bit 11: the name is UTF-8; otherwise CP437, which for the ASCII names of APKs and IPAs is the same.
            let path = String(decoding: nameData, as: UTF8.self)
            entries.append(Entry(path: path, method: method, crc32: crc, compressedSize: compressed,
                                 uncompressedSize: uncompressed, localHeaderOffset: localOffset, flags: flags))
            cursor += 46 + Int(nameLength) + Int(extraLength) + Int(commentLength)
        }
        self.entries = entries
    }

    /// The entry at exactly this path, if any.
    package func entry(_ path: String) -> Entry? {
        entries.first { $0.path == path }
    }

    /// The uncompressed bytes of `entry`, CRC-checked.
    package func extract(_ entry: Entry) throws(PreflightError) -> Data {
        let file = self.file
        func fail(_ message: String) -> PreflightError { .zip(file: file, message: "\(entry.path): \(message)") }
        guard entry.flags & 0x1 == 0 else { throw fail("the entry is encrypted") }
        func overLimit(_ what: String, _ limit: String, _ value: UInt64) -> PreflightError {
            .limit(what, limit: limit, value: value, file: file, location: "byte \(entry.localHeaderOffset)", path: [entry.path])
        }
        guard entry.uncompressedSize <= limits.zipEntryBytes else {
            throw overLimit("\(entry.uncompressedSize) bytes uncompressed", "zipEntryBytes", limits.zipEntryBytes)
        }
        guard entry.compressedSize <= limits.zipEntryBytes else {
            throw overLimit("\(entry.compressedSize) bytes compressed", "zipEntryBytes", limits.zipEntryBytes)
        }
        if entry.method == 8, entry.uncompressedSize > limits.compressionRatioFloor,
           entry.uncompressedSize / max(entry.compressedSize, 1) > limits.compressionRatio {
            throw overLimit("\(entry.compressedSize) bytes that inflate to \(entry.uncompressedSize) (a zip bomb?)",
                            "compressionRatio", limits.compressionRatio)
        }
        guard let offset = Int(exactly: entry.localHeaderOffset), reader.u32(offset) == 0x0403_4B50 else {
            throw fail("no local file header at offset \(entry.localHeaderOffset) (truncated archive?)")
        }
        guard let nameLength = reader.u16(offset + 26), let extraLength = reader.u16(offset + 28) else {
            throw fail("truncated local file header")
        }
        let dataOffset = offset + 30 + Int(nameLength) + Int(extraLength)
        guard let compressedCount = Int(exactly: entry.compressedSize),
              let compressed = reader.bytes(dataOffset, count: compressedCount) else {
            throw fail("\(entry.compressedSize) bytes of data at offset \(dataOffset) run past the end of the file (truncated archive?)")
        }
        let output: Data
        switch entry.method {
        case 0:
            output = compressed
        case 8:
            do {
                output = Data(try Inflate.decompress([UInt8](compressed), limit: Int(entry.uncompressedSize)))
            } catch {
                throw fail("deflate data is corrupt: \(error.description)")
            }
        default:
            throw fail("compression method \(entry.method) is not supported (only stored and deflate)")
        }
        guard UInt64(output.count) == entry.uncompressedSize else {
            throw fail("extracted \(output.count) bytes, the directory says \(entry.uncompressedSize)")
        }
        let crc = CRC32.checksum(output)
        guard crc == entry.crc32 else {
            throw fail("CRC-32 mismatch (0x\(String(crc, radix: 16)) computed, 0x\(String(entry.crc32, radix: 16)) recorded)")
        }
        return output
    }
}
