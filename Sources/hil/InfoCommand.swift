import Foundation

/// `hil info`: placeholder.
enum InfoCommand {
    static func run(_ arguments: Arguments) async -> ExitStatus {
        return .usageError
    }
}
