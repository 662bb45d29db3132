import Foundation

/// `hil usb`: placeholder until DeviceControl lands.
enum USBCommand {
    static func run(_ arguments: Arguments) async -> ExitStatus {
        FileHandle.standardError.write(Data("hil usb: not built yet\n".utf8))
        return .usageError
    }
}
