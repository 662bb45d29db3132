import Foundation

/// `hil power`: placeholder until DeviceControl lands.
enum PowerCommand {
    static func run(_ arguments: Arguments) async -> ExitStatus {
        FileHandle.standardError.write(Data("hil power: not built yet\n".utf8))
        return .usageError
    }
}
