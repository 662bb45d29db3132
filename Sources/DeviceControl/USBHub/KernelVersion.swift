/// A Linux kernel release (`6.1.0-57-amd64` → 6.1): the port `disable` file keeps a port off from 6.0 on.
package struct KernelVersion: Comparable, Sendable, CustomStringConvertible {
    package let major: Int
    package let minor: Int

    /// From 6.0 the kernel keeps a port whose `disable` file says 1 powered off (uhubctl relies on it).
    package var keepsDisabledPortsOff: Bool { self >= KernelVersion(major: 6, minor: 0) }

    package var description: String { "\(major).\(minor)" }

    package static func < (lhs: KernelVersion, rhs: KernelVersion) -> Bool { (lhs.major, lhs.minor) < (rhs.major, rhs.minor) }
}

extension KernelVersion {
    /// Parses the leading `MAJOR.MINOR` of a release string.
    package init?(release: String) {
        let numbers = release.split(whereSeparator: { !$0.isNumber }).prefix(2).compactMap { Int($0) }
        guard numbers.count == 2, release.first?.isNumber == true else { return nil }
        self.init(major: numbers[0], minor: numbers[1])
    }
}
