import BenchOperations
import GATT
import Roles

/// A command's work on an opened controller that failed: the one line it prints and the exit status it earns
/// (`hil dfu`'s and `hil bench`'s own failures; any other error is the bench's).
struct CommandFailure: Error {
    var message: String
    var status: ExitStatus
}

extension SessionArguments {
    /// Opens the controller, starts an `LEDevice` serving `database` on it and does `work`, then closes both.
    /// A `CommandFailure` prints its line and earns its status; any other error is the bench's (2), naming the
    /// moniker.
    func withDevice(_ command: String, database: GATTDatabase? = nil,
                    _ work: (LEDevice) async throws -> ExitStatus) async -> ExitStatus {
        let session: ControllerSession
        switch await open(command) {
        case .success(let opened): session = opened
        case .failure(let status): return status
        }
        let device = LEDevice(host: session.host, database: database)
        let status: ExitStatus
        do {
            try await device.start()
            status = try await work(device)
        } catch let error as CommandFailure {
            status = Diagnostics.fail(command, error.message, error.status)
        } catch {
            status = Diagnostics.fail(command, "\(moniker): \(error)", .infrastructureError)
        }
        await device.close()
        await session.close()
        return status
    }
}
