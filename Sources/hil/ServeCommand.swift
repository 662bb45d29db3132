import ControllerServer
import SocketServing
import AirServer
import BenchOperations
import Foundation

/// `hil serve ADAPTER --listen ADDRESS`: one controller of this host served as H4 to one host at a time
/// (see `AdapterServer`), its lease held while served (see `ServedAdapter`). SIGINT and SIGTERM stop it
/// (exit 0); a controller that goes away stops it with exit 2.
enum ServeCommand {
    static let usage = """
    usage: hil serve ADAPTER --listen tcp:127.0.0.1:PORT|unix:PATH [--rig RIG.json] [--capture FILE.btsnoop [--capture-keys]]
                     [--allow-remote] [--idle-timeout DURATION] [--wait SECONDS] [--timeout SECONDS]

    Serves one controller of this host (any moniker: usb:, hci-socket:, serial:, unix:, tcp-client:, sim: with
    --rig) as H4 to one host at a time, e.g. a runner on another host that names it tcp-client:127.0.0.1:9001.
    The controller is not reset here (the host resets it); bytes pass unchanged both ways. A second host
    connecting while one is served is closed at once (a line on stderr names it); when a host leaves nothing
    is sent, and the next host gets the same controller. The rig's lock (--rig; else one named for the
    adapter) is held while serving, so hil run on that bench fails at once naming this server.

      --listen ADDRESS    unix:PATH, or tcp:HOST:PORT on loopback (port 0: the kernel picks one)
      --allow-remote      accept a non-loopback tcp address (e.g. tcp:0.0.0.0:9001): anyone who reaches it
                          controls the adapter, with no authentication (a warning says so); without it,
                          reach the server from another host over SSH: ssh -L 9001:127.0.0.1:9001 benchhost
      --idle-timeout DURATION
                          close a host that sends and receives nothing this long, freeing the adapter for
                          the next one (default 5m; from 1s to 7d, e.g. 90s, 5m, 2h)
      --capture FILE      write every packet of every host to an H4 btsnoop file (mode 0600), keys redacted
      --capture-keys      keep the keys in it (LTK, IRK, CSRK, pairing values), for a Wireshark that decrypts
      --wait SECONDS      wait this long for the lock's holder (default: fail at once)
      --timeout SECONDS   how long the controller may take to answer at start (default 2)

    Prints "serving ADAPTER on ADDRESS", then a line per host connected and disconnected. SIGINT or SIGTERM
    stops it (exit 0, the socket file removed); a controller that goes away ends it with exit 2.
    """

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        let moniker: String
        let listen: ServeAddress
        let rigPath: String?
        let capture: CaptureArguments
        let wait: Double
        let timeout: Double
        let idleTimeout: Duration
        do {
            let allowRemote = arguments.flag("allow-remote")
            guard let listenText = try arguments.option("listen") else { throw UsageError("--listen ADDRESS is required (unix:PATH or tcp:127.0.0.1:PORT)") }
            listen = try ServeAddress(parsing: listenText, allowingRemote: true)
            rigPath = try arguments.option("rig")
            capture = try CaptureArguments.parse(&arguments)
            wait = try arguments.number("wait", in: 0...86_400) ?? 0
            timeout = try arguments.number("timeout", in: 0.01...600) ?? 2
            idleTimeout = try arguments.duration("idle-timeout", in: .seconds(1)...Self.longestIdleTimeout) ?? AdapterServer.defaultIdleTimeout
            moniker = try arguments.required("an adapter moniker")
            try arguments.finish()
            if !allowRemote, !listen.isLoopback, case .tcp(let host, let port) = listen {
                let example = port == 0 ? 9001 : port
                throw UsageError("'\(listenText)': \(host) is not a loopback address; give --allow-remote to listen there, or keep 127.0.0.1 "
                    + "and forward the port over SSH from the other host (ssh -L \(example):127.0.0.1:\(example) benchhost), whose rig names tcp-client:127.0.0.1:\(example)")
            }
        } catch {
            return Diagnostics.usageError("serve", error)
        }
        let served: ServedAdapter
        do {
            served = try await ServedAdapter.open(moniker: moniker, rigPath: rigPath, capturePath: capture.path, captureKeys: capture.keys,
                                                  command: (["hil"] + CommandLine.arguments.dropFirst()).joined(separator: " "),
                                                  wait: .milliseconds(Int64(wait * 1000)), notice: { log("hil serve: \($0)") })
        } catch {
            return SessionOpening.fail("serve", moniker: moniker, error)
        }
        signal(SIGPIPE, SIG_IGN)
        let stops = StopSignals()
        let signals = stops.names
        let server: AdapterServer
        do {
            server = try await AdapterServer.start(adapter: served.transport, options: .init(
                name: moniker, listen: listen, answerTimeout: .milliseconds(Int64(timeout * 1000)), idleTimeout: idleTimeout,
                announce: { line in print(line) }, log: log))
        } catch {
            await served.close()
            return Diagnostics.fail("serve", error.description, error.isUsage ? .usageError : .infrastructureError)
        }
        let forwarding = Task {
            for await name in signals { server.requestStop(name) }
        }
        if let warning = Self.exposureWarning(server.address, moniker: moniker) { log(warning) }
        print(server.readyLine)
        var reason = AdapterServer.StopReason.requested("the server ended")
        for await request in server.stopRequests {
            reason = request
            break
        }
        await server.shutdown()
        await served.close()
        forwarding.cancel()
        switch reason {
        case .requested(let why):
            log("hil serve: stopped (\(why))")
            return .success
        case .adapterClosed(let error):
            return Diagnostics.fail("serve", "\(moniker): the controller went away (\(error.message)); stopped serving", .infrastructureError)
        }
    }

    /// The longest `--idle-timeout`: a host silent for a week is gone. There is no "never": a host that
    /// holds the adapter for ever without using it is what the timeout exists to end.
    static let longestIdleTimeout = Duration.seconds(7 * 86_400)

    /// The warning for a listening address other hosts can reach (only `--allow-remote` accepts one).
    static func exposureWarning(_ listen: ServeAddress, moniker: String) -> String? {
        guard !listen.isLoopback else { return nil }
        return "hil serve: warning: \(listen) is not loopback: an unauthenticated controller (\(moniker)) is now exposed on the network; "
            + "anyone who can reach this port can drive it (H4 has no authentication)"
    }

    /// One line on standard error.
    @Sendable static func log(_ line: String) {
        StandardStreams.error((line + "\n"))
    }
}
