extension MCUbootVersion {
    /// Reads a version as imgtool takes it: "major.minor.revision" with an optional "+build" (each part in its
    /// field's range: 0–255, 0–255, 0–65535, 0–4294967295); nil for anything else.
    package init?(parsing text: String) {
        let parts = text.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)
        let numbers = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard numbers.count == 3, numbers.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
              let major = UInt8(numbers[0]), let minor = UInt8(numbers[1]), let revision = UInt16(numbers[2]) else { return nil }
        var build: UInt32 = 0
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].allSatisfy(\.isASCII), let parsed = UInt32(parts[1]) else { return nil }
            build = parsed
        }
        self.init(major: major, minor: minor, revision: revision, build: build)
    }
}
