import BenchOperations
import Foundation
import HCI
import RigFormat

/// Opens the controller a command names, printing the one-line diagnostic and choosing the exit status
/// when it cannot: a bad moniker or rig file is a usage error (3), anything else the bench's (2).
enum SessionOpening {
    static func open(_ command: String, moniker: String, rigPath: String?, capture: String?,
                     commandTimeout: Duration = .seconds(2)) async -> Result<ControllerSession, ExitStatus> {
        do {
            return .success(try await ControllerSession.open(moniker: moniker, rigPath: rigPath, capturePath: capture, commandTimeout: commandTimeout))
        } catch let error as HCITransportError {
            return .failure(Diagnostics.fail(command, error.description, error.kind == .invalidMoniker ? .usageError : .infrastructureError))
        } catch let error as RigError {
            return .failure(Diagnostics.fail(command, error.description, .usageError))
        } catch {
            return .failure(Diagnostics.fail(command, "\(moniker): \(error)", .infrastructureError))
        }
    }
}
