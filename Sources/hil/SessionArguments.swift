import BenchOperations
import Foundation
import HCITransports
import Roles
import StrictJSON

/// The controller a command opens, and how: `--capture FILE [--capture-keys]`, `--rig RIG.json` and the
/// MONIKER. A command reads the options with its own (`parse`) and the moniker after all of them (`finish`),
/// so that no option's value is taken for the moniker.
struct SessionArguments {
    /// `--capture FILE` and `--capture-keys`.
    let capture: CaptureArguments
    /// `--rig RIG.json`, if given.
    let rigPath: String?
    /// The controller moniker, once `finish` has read it.
    private(set) var moniker = ""

    /// Reads `--capture`, `--capture-keys` and `--rig` (see `CaptureArguments.parse` for `alwaysCaptures`).
    static func parse(_ arguments: inout Arguments, alwaysCaptures: Bool = false) throws(UsageError) -> SessionArguments {
        let capture = try CaptureArguments.parse(&arguments, alwaysCaptures: alwaysCaptures)
        return SessionArguments(capture: capture, rigPath: try arguments.option("rig"))
    }

    /// Reads the moniker, the one positional word, once every option is read; then nothing may be left.
    mutating func finish(_ arguments: inout Arguments) throws(UsageError) {
        moniker = try arguments.required("a controller moniker")
        try arguments.finish()
    }

    /// `finish`, for a command that acts on one accessory: then the scan filter must name it.
    mutating func finish(_ arguments: inout Arguments, accessory filter: ScanFilter) throws(UsageError) {
        try finish(&arguments)
        try FilterArguments.requireAccessory(filter)
    }

    /// Opens the controller (`SessionOpening.open`), with `capture` in place of the one given when the
    /// command chose where its capture goes.
    func open(_ command: String, capture: CaptureArguments? = nil,
              commandTimeout: Duration = .seconds(2)) async -> Result<ControllerSession, ExitStatus> {
        await SessionOpening.open(command, moniker: moniker, rigPath: rigPath, capture: capture ?? self.capture, commandTimeout: commandTimeout)
    }
}

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
