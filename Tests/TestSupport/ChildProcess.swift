import Foundation

/// Runs a program to completion on a Dispatch thread, never on Swift's cooperative pool: a blocked
/// pool thread on a 2-core machine stalls every other test's timers.
public func runProgram(_ path: String, _ arguments: [String]) async -> (status: Int32, output: String) {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = Pipe()
            do {
                try process.run()
            } catch {
                continuation.resume(returning: (127, "\(path): \(error)"))
                return
            }
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
        }
    }
}
