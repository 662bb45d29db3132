import BenchOperations
import GATT
import Roles

extension SessionArguments {
    /// Opens the controller and an `LEDevice` serving `database` on it, does `work`, then closes both: the device
    /// is not started, so that a command may start it (or not) where its output says so. A controller that
    /// cannot be opened prints its line and earns its status (`SessionOpening`) without calling `work`.
    func withOpenDevice(_ command: String, database: GATTDatabase? = nil,
                        _ work: (LEDevice) async -> ExitStatus) async -> ExitStatus {
        let session: ControllerSession
        switch await open(command) {
        case .success(let opened): session = opened
        case .failure(let status): return status
        }
        let device = LEDevice(host: session.host, database: database)
        let status = await work(device)
        await device.close()
        await session.close()
        return status
    }

    /// Opens the controller, starts an `LEDevice` serving `database` on it and does `work`, then closes both.
    /// A `CommandFailure` prints its line and earns its status; any other error is the bench's (2), naming the
    /// moniker.
    func withDevice(_ command: String, database: GATTDatabase? = nil,
                    _ work: (LEDevice) async throws -> ExitStatus) async -> ExitStatus {
        await withOpenDevice(command, database: database) { device in
            do {
                try await device.start()
                return try await work(device)
            } catch let error as CommandFailure {
                return Diagnostics.fail(command, error.message, error.status)
            } catch {
                return Diagnostics.fail(command, "\(moniker): \(error)", .infrastructureError)
            }
        }
    }
}
