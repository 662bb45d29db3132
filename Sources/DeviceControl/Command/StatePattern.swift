import Foundation

/// Regular expressions that read a switch's state from a command's stdout: `{"on": "…", "off": "…"}`.
package struct StatePattern: Sendable, Equatable {
    package let on: String
    package let off: String

    /// Compiles both now so a bad pattern is reported where it is written.
    package init(on: String, off: String) throws {
        for (key, pattern) in [("on", on), ("off", off)] {
            do { _ = try NSRegularExpression(pattern: pattern) } catch {
                throw PowerSwitchError(.invalidInput, "statePattern.\(key): '\(pattern)' is not a valid regular expression")
            }
        }
        self.on = on
        self.off = off
    }

    /// `.on`/`.off` when exactly one pattern matches `text`; unknown otherwise.
    package func state(of text: String) -> PowerState {
        let onMatch = Self.matches(on, text), offMatch = Self.matches(off, text)
        switch (onMatch, offMatch) {
        case (true, false): return .on
        case (false, true): return .off
        case (true, true): return .unknown(reason: "output matches both the on pattern '\(on)' and the off pattern '\(off)'")
        case (false, false): return .unknown(reason: "output matches neither the on pattern '\(on)' nor the off pattern '\(off)'")
        }
    }

    static func matches(_ pattern: String, _ text: String) -> Bool {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
