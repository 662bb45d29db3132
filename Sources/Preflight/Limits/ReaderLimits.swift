/// The most a preflight reader accepts from one file. Each reader counts explicitly against these (no
/// recursion that could outgrow a thread's stack), so they hold alike in debug and release builds; a file
/// past one is refused with `PreflightError.limitExceeded`, naming the limit and where it was hit.
///
/// Real Info.plists and manifests are far inside every limit: the largest merged manifests are a few
/// thousand elements, a dozen levels deep, with under 30 attributes an element.
package struct ReaderLimits: Sendable, Hashable {
    /// Elements open at once (XML, binary XML) and containers inside containers (property lists).
    package var nestingDepth = 512
    /// Attributes on one element: 65,535 is the most Android's binary XML can hold (`attributeCount` is a
    /// 16-bit field in `ResXMLTree_attrExt`).
    package var attributesPerElement = 65_535
    /// Attributes in the whole document.
    package var attributesPerDocument = 1_000_000
    /// Elements in the whole document (XML, binary XML) or values in a property list, counting a value each
    /// time it is reached: a binary plist can refer to one container many times.
    package var values = 1_000_000
    /// Bytes of one string: an attribute value, an element's text, a property list string or data.
    package var stringBytes = 1 << 20
    /// Entries in a zip archive's central directory.
    package var zipEntries = 1_000_000
    /// Bytes of one zip entry, compressed and uncompressed: manifests and plists are far smaller.
    package var zipEntryBytes: UInt64 = 64 << 20
    /// Uncompressed bytes per compressed byte of one deflated zip entry larger than
    /// `compressionRatioFloor` (a zip bomb inflates about 1,000 to 1; text XML, 5 to 20).
    package var compressionRatio: UInt64 = 200
    /// Entries smaller than this uncompressed are not held to `compressionRatio`.
    package var compressionRatioFloor: UInt64 = 1 << 20

    package init() {}

    /// The limits `hil preflight` reads with.
    package static let standard = ReaderLimits()
}
