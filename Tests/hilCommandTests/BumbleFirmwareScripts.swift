// Test kind: process
import Foundation
import Testing
import TestSupport

/// Runs one of the scripts/peers/bumble-*-firmware.py references on Debian's firmware files (unpacked by
/// `scripts/install-deps --firmware` into .build/firmware/lib/firmware, or HIL_FIRMWARE_DIR) and reads its
/// JSON lines, creating the project's Bumble venv first if it is missing.
enum BumbleFirmwareScripts {
    static let python = repositoryRoot.appendingPathComponent(".venv/bin/python").path
    static let firmwareRoot = ProcessInfo.processInfo.environment["HIL_FIRMWARE_DIR"]
        ?? repositoryRoot.appendingPathComponent(".build/firmware/lib/firmware").path

    static func json(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    /// Requires `file` (relative to the firmware root) to be there, naming the package that ships it.
    static func require(_ file: String, package: String) throws {
        try #require(FileManager.default.fileExists(atPath: firmwareRoot + "/" + file),
                     "no \(file) under \(firmwareRoot): scripts/install-deps --firmware fetches Debian's \(package)")
    }

    /// The script's JSON objects, one a line; fails the test when it cannot run.
    static func entries(_ script: String) async throws -> [[String: Any]] {
        if !FileManager.default.isExecutableFile(atPath: python) {
            let made = await runProgram(repositoryRoot.appendingPathComponent("scripts/peers/venv").path, [])
            try #require(made.status == 0, "cannot create the Python venv for Bumble: \(made.output)")
        }
        let path = repositoryRoot.appendingPathComponent("scripts/peers/" + script).path
        let ran = await runProgramCapturing(python, [path, firmwareRoot])
        try #require(ran.termination?.exitStatus == 0, "\(script): \(ran.stderr)")
        return ran.stdout.split(separator: "\n").compactMap { json(String($0)) }
    }
}
