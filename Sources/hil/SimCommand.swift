import SocketServing
import AirServer
import DeviceControl
import Foundation
import Rigs

/// `hil sim serve …` (the simulated air served as H4 controllers) and `hil sim power …` (its control
/// socket's client).
enum SimCommand {
    static let usage = """
    usage: hil sim serve [--rig RIG.json] --listen unix:PATH|tcp:127.0.0.1:PORT [--listen …]
                         [--listen-controller NAME=ADDRESS …] [--control unix:PATH|tcp:127.0.0.1:PORT]
                         [--power-follows ACCESSORY=USB-LOCATION …] [--sysfs DIR]
             --control takes power, status, help and quit with no authentication: a unix: socket only from its
             owner (and root), a tcp: one (loopback only) from every user of this host
           hil sim power --control unix:PATH|tcp:127.0.0.1:PORT ACCESSORY on|off|status [--timeout SECONDS]
    """

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        switch arguments.positional() {
        case "serve": return await SimServeCommand.run(arguments)
        case "power": return SimPowerCommand.run(arguments)
        case nil where arguments.flag("help"): print(usage); return .success
        case let other:
            return Diagnostics.fail("sim", "\(other.map { "unknown subcommand '\($0)'" } ?? "missing a subcommand") (serve or power; see hil sim --help)", .usageError)
        }
    }
}

/// `hil sim serve`: see `SimulatedAirServer`. Standard input takes the control protocol; its end does not
/// stop the server (started in the background it keeps serving): `quit`, SIGTERM or SIGINT do.
enum SimServeCommand {
    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        if arguments.flag("help") { print(SimCommand.usage); return .success }
        let rigPath: String
        let options: SimulatedAirServer.Options
        do {
            rigPath = try arguments.option("rig") ?? Rig.defaultPath() ?? "rigs/simulated.json"
            let listen = try arguments.options("listen").map { text throws(ServeError) in try ServeAddress(parsing: text) }
            let claims = try arguments.options("listen-controller").map { text throws(ServeError) in try SimulatedAirServer.ControllerListen(parsing: text) }
            let control = try arguments.option("control").map { text throws(ServeError) in try Self.controlAddress(text) }
            let follows = try arguments.options("power-follows").map { text throws(ServeError) in try PowerFollow(parsing: text) }
            let sysfs = try arguments.option("sysfs") ?? "/sys"
            try arguments.finish()
            guard !listen.isEmpty || !claims.isEmpty else { throw UsageError("give at least one --listen (or --listen-controller)") }
            options = SimulatedAirServer.Options(listen: listen, controllerListens: claims, control: control, powerFollows: follows,
                                                 sysfs: SysfsRoot(path: sysfs), log: { line in
                StandardStreams.error((line + "\n"))
            })
        } catch {
            return Diagnostics.fail("sim serve", "\(error) (see hil sim --help)", .usageError)
        }
        let rig: Rig
        do {
            rig = try Rig.load(path: rigPath)
        } catch {
            return Diagnostics.fail("sim serve", "\(error)", .usageError)
        }
        signal(SIGPIPE, SIG_IGN)
        // Started with `&` from an interactive shell, a read of the terminal would stop the process
        // (SIGTTIN); ignored, the read fails instead and only standard input's channel ends.
        signal(SIGTTIN, SIG_IGN)
        let stops = StopSignals()
        let signals = stops.names
        let server: SimulatedAirServer
        do {
            server = try await SimulatedAirServer.start(rig: rig, options: options)
        } catch {
            return Diagnostics.fail("sim serve", error.description, error.isUsage ? .usageError : .infrastructureError)
        }
        let forwarding = Task {
            for await name in signals { server.requestStop(name) }
        }
        StandardStreams.output(Data((server.readyLine + "\n").utf8))
        let input = Task { await server.serveStandardInput() }
        var why = "the server ended"
        for await request in server.stopRequests {
            why = request
            break
        }
        await server.shutdown()
        input.cancel()
        forwarding.cancel()
        StandardStreams.error("hil sim serve: stopped (\(why))\n")
        return .success
    }
}

extension SimServeCommand {
    /// `--control ADDRESS`: a Unix socket, or a loopback TCP port; never one another host can reach, since
    /// the protocol has no authentication and takes `quit`.
    static func controlAddress(_ text: String) throws(ServeError) -> ServeAddress {
        do {
            return try ServeAddress(parsing: text)
        } catch {
            throw ServeError("--control \(error.description); the control socket has no authentication, so it is a unix:PATH "
                + "(only its owner can connect) or a loopback tcp: port (every local user can)", usage: true)
        }
    }
}

/// `hil sim power --control ADDRESS ACCESSORY on|off|status`: one request to a served air's control
/// socket. Exit 0 with the `ok` line on stdout; 3 when the server says the request is wrong (`error:`);
/// 2 when it could not do it (`failed:`) or nothing answers.
enum SimPowerCommand {
    static func run(_ arguments: Arguments) -> ExitStatus {
        var arguments = arguments
        if arguments.flag("help") { print(SimCommand.usage); return .success }
        let address: ServeAddress
        let accessory: String
        let action: String
        let timeout: Double
        do {
            guard let control = try arguments.option("control") else { throw UsageError("--control ADDRESS is required") }
            address = try ServeAddress(parsing: control)
            timeout = try arguments.number("timeout", in: 0.1...600) ?? 70
            accessory = try arguments.required("an accessory name")
            action = try arguments.required("on, off or status")
            try arguments.finish()
            guard ["on", "off", "status"].contains(action) else { throw UsageError("'\(action)': expected on, off or status") }
        } catch {
            return Diagnostics.fail("sim power", "\(error) (see hil sim --help)", .usageError)
        }
        let answer: String
        do {
            answer = try SimServeControlClient.request("power \(accessory) \(action)", to: address,
                                                       timeout: .milliseconds(Int64(timeout * 1000)))
        } catch {
            return Diagnostics.fail("sim power", error.description, error.isUsage ? .usageError : .infrastructureError)
        }
        if answer == "ok" || answer.hasPrefix("ok ") {
            print(answer)
            return .success
        }
        if answer.hasPrefix("error: ") {
            return Diagnostics.fail("sim power", String(answer.dropFirst(7)), .usageError)
        }
        return Diagnostics.fail("sim power", answer.hasPrefix("failed: ") ? String(answer.dropFirst(8)) : "unexpected answer '\(answer)'",
                                .infrastructureError)
    }
}
