import Foundation
@testable import HCIPackets
import SeededRandom
import Testing

/// Truncated and random input: parsing must throw or succeed, lenient parsing
/// must keep a well-formed prefix, and nothing may trap.
@Suite("AdvertisingData on damaged input")
struct AdvertisingDataFuzzTests {
    /// Touches every accessor, so a trap anywhere would fail the test run.
    private static func exercise(_ ad: AdvertisingData) -> Int {
        var touched = ad.summary.count
        touched += ad.serviceUUIDs.count + ad.serviceData.count + ad.manufacturerData.count
        touched += Int(ad.txPowerLevel ?? 0) + Int(ad.appearance ?? 0) + Int(ad.flags?.rawValue ?? 0)
        touched += (ad.localName?.count ?? 0) + (ad.isCompleteName == true ? 1 : 0)
        return touched
    }

    /// What lenient parsing keeps is exactly a leading run of the input.
    private static func checkLenient(_ bytes: [UInt8]) {
        let lenient = AdvertisingData.lenientlyParsed(bytes)
        let encoded = lenient.encoded()
        #expect(Array(bytes.prefix(encoded.count)) == encoded)
        _ = exercise(lenient)
        do {
            let strict = try AdvertisingData(parsing: bytes)
            #expect(strict == lenient)
        } catch {
            #expect(error.offset >= encoded.count && error.offset < bytes.count)
            #expect(error.offset == encoded.count)
        }
    }

    @Test("every prefix of every sample payload", arguments: 0..<AdvertisingPayloads.all.count)
    func prefixes(index: Int) throws {
        let payload = AdvertisingPayloads.all[index]
        let full = try AdvertisingData(parsing: payload)
        for length in 0...payload.count {
            let prefix = Array(payload.prefix(length))
            Self.checkLenient(prefix)
            let lenient = AdvertisingData.lenientlyParsed(prefix)
            #expect(full.structures.starts(with: lenient.structures))
            let boundaries = full.structures.reduce(into: [0]) { $0.append(($0.last ?? 0) + $1.data.count + 2) }
            if boundaries.contains(length) {
                #expect(throws: Never.self) { try AdvertisingData(parsing: prefix) }
            } else {
                #expect(throws: AdvertisingDataError.self) { try AdvertisingData(parsing: prefix) }
            }
        }
    }

    @Test("random bytes never trap", arguments: [UInt64(1), 2, 3, 0xB1E])
    func randomBytes(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var parsedCleanly = 0
        for _ in 0..<1_500 {
            let count = Int.random(in: 0...64, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            Self.checkLenient(bytes)
            if (try? AdvertisingData(parsing: bytes)) != nil { parsedCleanly += 1 }
        }
        #expect(parsedCleanly > 0)
    }

    @Test("random well-formed structures round-trip", arguments: [UInt64(7), 8])
    func randomStructures(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        for _ in 0..<500 {
            let structures = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                ADStructure(type: ADType(UInt8.random(in: 0...255, using: &generator)),
                            data: (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            }
            let ad = AdvertisingData(structures: structures)
            let parsed = try AdvertisingData(parsing: ad.encoded())
            #expect(parsed == ad)
            _ = Self.exercise(parsed)
        }
    }
}
