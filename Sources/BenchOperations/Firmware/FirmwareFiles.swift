import Foundation

/// Where controller firmware files are looked up, in order: `HIL_FIRMWARE_DIR` alone when it is set, else
/// `/lib/firmware` (the machine's, as the kernel's `request_firmware` reads it), else
/// `.build/firmware/lib/firmware` (what `scripts/install-deps --firmware` unpacks from Debian's package).
package struct FirmwareFiles: Sendable {
    /// The directories searched, first match wins.
    package let directories: [String]

    package init(directories: [String]) {
        self.directories = directories
    }

    package static let environmentVariable = "HIL_FIRMWARE_DIR"
    package static let fallbackDirectories = ["/lib/firmware", ".build/firmware/lib/firmware"]

    /// The directories for this process's environment (`HIL_FIRMWARE_DIR`, else the fallbacks).
    package static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> FirmwareFiles {
        if let directory = environment[environmentVariable], !directory.isEmpty { return FirmwareFiles(directories: [directory]) }
        return FirmwareFiles(directories: fallbackDirectories)
    }

    /// The first of `directories`/`name` that exists (`name` relative, e.g. `rtl_bt/rtl8761bu_fw.bin`).
    package func path(of name: String) -> String? {
        directories.lazy.map { ($0 as NSString).appendingPathComponent(name) }.first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// The contents of the first `name` found; nil when no directory has it (or it cannot be read).
    package func read(_ name: String) -> (path: String, bytes: [UInt8])? {
        guard let path = path(of: name), let data = FileManager.default.contents(atPath: path) else { return nil }
        return (path, [UInt8](data))
    }

    /// The order in words, for advice.
    package static let lookupOrder = "HIL_FIRMWARE_DIR, else /lib/firmware, else .build/firmware/lib/firmware"

    /// "HIL_FIRMWARE_DIR=/x" or "/lib/firmware, .build/firmware/lib/firmware": where a missing file was looked for.
    package var searched: String { directories.joined(separator: ", ") }
}
