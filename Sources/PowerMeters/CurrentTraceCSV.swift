import Foundation

/// The CSV of a current trace: a header line `time_s,current_uA`, then a row per sample — seconds from the
/// trace's start and the current in µA from then until the next row's time (the last row holds for the
/// interval before it). The bench writes a case's trace so, a bin a row (`captures/<case>.current.csv`), and
/// reads a `command` meter's program's file in the same form, or with `unix_s,current_uA` (seconds since
/// 1970, for a program that stamps its samples with the wall clock). Lines starting with `#` are comments.
package enum CurrentTraceCSV {
    /// The header line of a trace whose times are seconds from its start.
    package static let header = "time_s,current_uA"
    /// The header line of a trace whose times are seconds since 1970 (UTC).
    package static let unixHeader = "unix_s,current_uA"

    /// What a file's time column counts from.
    package enum TimeColumn: Sendable, Equatable {
        /// `time_s`: the trace's start (the program's, for a `command` meter).
        case fromStart
        /// `unix_s`: 1970-01-01 00:00:00 UTC.
        case unix
    }

    /// A file read: its time column and its samples, times as the file gives them.
    package struct File: Sendable, Equatable {
        package var clock: TimeColumn
        package var samples: CurrentSamples
    }

    /// The CSV of `trace`: a row per bin, its start and its mean current.
    package static func render(_ trace: CurrentTrace) -> String {
        var text = header + "\n"
        text.reserveCapacity(trace.microamperes.count * 20)
        for (index, current) in trace.microamperes.enumerated() {
            text += "\(decimal(Double(index) * trace.binSeconds, digits: 6)),\(decimal(current, digits: 3))\n"
        }
        return text
    }

    /// Reads the rows of `text`, the contents of `file`: a header, then rows of two finite numbers with
    /// strictly increasing times and a current not below zero. Anything else is an error naming the file and line.
    package static func read(_ text: String, file: String) throws(PowerMeterError) -> File {
        var samples = CurrentSamples(times: [], microamperes: [])
        var clock: TimeColumn?
        // "\r\n" is one Character in Swift: a line ends at either.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let number = index + 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            func fail(_ why: String) -> PowerMeterError {
                PowerMeterError(.protocolViolation, "\(file):\(number): \(why), found \"\(line.prefix(60))\"")
            }
            guard clock != nil else {
                switch line.replacingOccurrences(of: " ", with: "") {
                case header: clock = .fromStart
                case unixHeader: clock = .unix
                default: throw fail("expected the header \(header) or \(unixHeader)")
                }
                continue
            }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 2 else { throw fail("expected 2 columns (time, current_uA)") }
            guard let time = Double(fields[0]), time.isFinite else { throw fail("the time is not a number") }
            guard let current = Double(fields[1]), current.isFinite else { throw fail("current_uA is not a number") }
            guard current >= 0 else { throw fail("current_uA is negative") }
            if let last = samples.times.last, time <= last { throw fail("the time does not increase (the row before is at \(last) s)") }
            samples.times.append(time)
            samples.microamperes.append(current)
        }
        guard let clock else { throw PowerMeterError(.protocolViolation, "\(file): empty; expected the header \(header) or \(unixHeader)") }
        return File(clock: clock, samples: samples)
    }

    /// `value` with at most `digits` decimals, trailing zeros dropped (`0.001`, `12.5`, `3`).
    static func decimal(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        var text = String(rounded)
        if text.contains("e") { return text }
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
