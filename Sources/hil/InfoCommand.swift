import BenchOperations
import Foundation
import Roles

/// `hil info MONIKER [--json] [--capture FILE] [--timeout SECONDS]`: resets a controller and prints
/// what it is.
enum InfoCommand {
    static let usage = "usage: hil info MONIKER [--json] [--capture FILE.btsnoop [--capture-keys]] [--timeout SECONDS] [--rig RIG.json]"

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        var controller: SessionArguments
        let json: Bool
        let timeout: Double
        do {
            json = arguments.flag("json")
            controller = try SessionArguments.parse(&arguments)
            timeout = try arguments.number("timeout", in: 0.01...600) ?? 2
            try controller.finish(&arguments)
        } catch {
            return Diagnostics.usageError("info", error)
        }
        let session: ControllerSession
        switch await controller.open("info", commandTimeout: .milliseconds(Int64(timeout * 1000))) {
        case .success(let opened): session = opened
        case .failure(let status): return status
        }
        let host = session.host
        do {
            let info = try await host.initialize()
            let report = ControllerInfoReport(moniker: controller.moniker, info: info, leSupported: await host.state != .unsupported,
                                              firmware: session.firmware, quirks: session.quirks)
            print(json ? JSONOutput.text(report) : report.text())
            await session.close()
            return .success
        } catch {
            await session.close()
            return Diagnostics.fail("info", "\(controller.moniker): \(error)", .infrastructureError)
        }
    }
}

/// One clear line on stderr, then the exit status.
enum Diagnostics {
    static func fail(_ command: String, _ message: String, _ status: ExitStatus) -> ExitStatus {
        StandardStreams.error("hil \(command): \(message)\n")
        return status
    }

    /// A wrong command line: one line naming what was wrong and where the whole usage is, exit 3.
    static func usageError(_ command: String, _ error: any Error) -> ExitStatus {
        fail(command, "\(error); see 'hil \(command) --help'", .usageError)
    }
}
