import BenchOperations
import Foundation
import HCITransports
import StrictJSON

/// Opens the controller a command names, printing the one-line diagnostic and choosing the exit status
/// when it cannot: a bad moniker or rig file is a usage error (3), anything else the bench's (2).
enum SessionOpening {
    static func open(_ command: String, moniker: String, rigPath: String?, capture: CaptureArguments,
                     commandTimeout: Duration = .seconds(2)) async -> Result<ControllerSession, ExitStatus> {
        do {
            return .success(try await ControllerSession.open(moniker: moniker, rigPath: rigPath, capturePath: capture.path,
                                                             captureKeys: capture.keys, commandTimeout: commandTimeout))
        } catch {
            return .failure(fail(command, moniker: moniker, error))
        }
    }

    /// The one line and exit status for a controller that could not be opened: a bad moniker or rig is a
    /// usage error (3); a held bench and anything else are the bench's (2).
    static func fail(_ command: String, moniker: String, _ error: any Error) -> ExitStatus {
        switch error {
        case let error as HCITransportError:
            Diagnostics.fail(command, error.description, error.kind == .invalidMoniker ? .usageError : .infrastructureError)
        case let error as InputError:
            Diagnostics.fail(command, error.description, .usageError)
        case let error as RigLockError:
            Diagnostics.fail(command, error.description, .infrastructureError)
        default:
            Diagnostics.fail(command, "\(moniker): \(error)", .infrastructureError)
        }
    }
}
