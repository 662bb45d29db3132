import Foundation
import HILResults
import Testing

extension HILCase {
    /// Attaches the case's record (JSON), its timeline (text) and its btsnoop capture to the running test
    /// (`Attachment.record`), so `swift test --attachments-path DIR` and an IDE show them beside the verdict.
    /// Under `hil run` the results directory already holds all three (records/, captures/): nothing is attached.
    static func attach(_ record: TestRecord, capture: String?) {
        guard Test.current != nil else { return }
        if let json = try? TestRecord.makeEncoder().encode(record) {
            Attachment.record([UInt8](json), named: "record.json")
        }
        if !record.timeline.isEmpty {
            let lines = record.timeline.map { event in
                let span = event.duration.map { String(format: " (+%.3f s)", $0) } ?? ""
                return String(format: "%8.3f s ", event.offset) + "[\(event.lane.rawValue)] \(event.label)\(span)\(event.isFailure ? " ✘" : "")"
            }
            Attachment.record(lines.joined(separator: "\n") + "\n", named: "timeline.txt")
        }
        if let capture, let data = FileManager.default.contents(atPath: capture), !data.isEmpty {
            Attachment.record([UInt8](data), named: "capture.btsnoop")
        }
    }
}
