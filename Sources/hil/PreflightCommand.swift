import Foundation

/// `hil preflight`: placeholder until the preflight lint lands.
enum PreflightCommand {
    static func run(_ arguments: Arguments) async -> ExitStatus {
        FileHandle.standardError.write(Data("hil preflight: not built yet\n".utf8))
        return .usageError
    }
}
