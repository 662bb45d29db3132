/// An Intel device configuration file (`intel/ibt-*.ddc`): records of a length octet and that many octets (a
/// 2-octet DDC ID, then its value), each sent whole — length octet included — as the parameters of one Intel
/// Write DDC (vendor opcode 0xFC8B), as btintel's `btintel_load_ddc_config` sends them.
package struct IntelDDC: Sendable, Equatable {
    package static let writeOpcode: UInt16 = 0xFC8B

    package let file: String
    package let bytes: [UInt8]
    /// Each record's range, length octet included: one Write DDC's parameters.
    package let records: [Range<Int>]

    package init(bytes: [UInt8], file: String) throws(FirmwareError) {
        var records: [Range<Int>] = []
        var position = 0
        while position < bytes.count {
            let end = position + 1 + Int(bytes[position])
            guard end <= bytes.count else {
                throw FirmwareError(file: file, problem: "truncated .ddc: the record at offset \(position) is \(end - position) octets, the file ends \(bytes.count - position) after its start")
            }
            records.append(position..<end)
            position = end
        }
        self.file = file
        self.bytes = bytes
        self.records = records
    }

    /// Each Write DDC's parameters, in order.
    package var commands: [ArraySlice<UInt8>] { records.map { bytes[$0] } }
}
