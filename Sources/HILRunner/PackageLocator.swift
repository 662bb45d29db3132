import Foundation

/// Finds the BluetoothHIL package, whose `Tests/HILTests` are the built-in suites: `HIL_PACKAGE_DIR`, else
/// the nearest directory above the `hil` executable, else above the current directory, whose
/// Package.swift names the package BluetoothHIL.
package enum PackageLocator {
    package static func bluetoothHIL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let path = environment["HIL_PACKAGE_DIR"], !path.isEmpty {
            let url = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
            return isBluetoothHIL(url) ? url : nil
        }
        var starts: [URL] = []
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        if executable.path != "/proc/self/exe" { starts.append(executable.deletingLastPathComponent()) }
        if let path = Bundle.main.executablePath { starts.append(URL(fileURLWithPath: path).deletingLastPathComponent()) }
        starts.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
        for start in starts {
            var directory = start.standardizedFileURL
            while true {
                if isBluetoothHIL(directory) { return directory }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        return nil
    }

    static func isBluetoothHIL(_ directory: URL) -> Bool {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("Package.swift"), encoding: .utf8) else { return false }
        return text.contains("name: \"BluetoothHIL\"")
    }

    /// Whether a directory holds a Swift package.
    package static func isPackage(_ directory: URL) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path)
    }
}
