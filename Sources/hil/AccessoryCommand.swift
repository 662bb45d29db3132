import AccessoryPlay
import BenchOperations
import Foundation
import GATT
import SMP
import Roles
import HILResults
import StrictJSON

/// `hil accessory MONIKER --profile PROFILE.json [--plan PLAN.json] [--out DIR]`: the bench plays an accessory
/// for a phone app, runs a fault plan against it (or serves until stopped) and reports what the app did.
enum AccessoryCommand {
    static let usage = """
        usage: hil accessory MONIKER --profile PROFILE.json [--plan PLAN.json] [--out DIR] [--rig RIG.json] [--capture FILE] [--capture-keys]
        Plays the accessory PROFILE.json describes (name, advertising, GATT services: profiles/*.json) for a phone
        app, and runs the fault plan PLAN.json against the central that connects (docs/accessory-plans.md):
        disconnect with a reason, vanish, stay away then advertise again, stop answering ATT, change the
        database and indicate Service Changed, flood notifications, ask for connection parameters, rotate
        the private address, require or refuse pairing, forget the bond; on a timer, after a connection or
        when the app reads, writes or subscribes. Without --plan it serves until Ctrl-C / SIGTERM (exit 0). A
        profile with "mcumgr" is an MCUmgr SMP server with MCUboot's slots: an MCUmgr client updates it, and
        central.json's "images" holds the slots at the end. Records what the central did — connections, disconnections,
        MTU, discovery, reads, writes, subscriptions — how long it took to reconnect after each fault and to
        re-discover after Service Changed. Runs until the plan is done (every step ran, every expectation
        decided; then it serves one more second) or Ctrl-C / SIGTERM, ends a link still up (0x13), and
        writes DIR (default results/accessory) either way: junit.xml, results.json and report.html (one
        test case per expectation, and the central's activity), central.json (every event) and
        captures/accessory.btsnoop (the session; --capture FILE elsewhere; its keys redacted unless --capture-keys).
        DIR and its folders are created mode 0700, its files 0600.
        Exit 0 when every expectation passed, 1 when one failed, 130 when interrupted.
        """

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        var controller: SessionArguments, profilePath: String, planPath: String?, out: String
        do {
            guard let profile = try arguments.option("profile") else { throw UsageError("--profile PROFILE.json is required") }
            (profilePath, planPath) = (profile, try arguments.option("plan"))
            out = try arguments.option("out") ?? "results/accessory"
            controller = try SessionArguments.parse(&arguments, alwaysCaptures: true)
            try controller.finish(&arguments)
        } catch {
            return Diagnostics.usageError("accessory", error)
        }
        let profile: AccessoryProfile, plan: FaultPlan, database: GATTDatabase
        do {
            profile = try AccessoryProfile.read(file: profilePath)
        } catch {
            return Diagnostics.fail("accessory", "profile \(profilePath): \(error.message)", .usageError)
        }
        do {
            plan = try planPath.map { (path: String) throws(InputError) -> FaultPlan in
                try FaultPlan.read(file: path, fallbackName: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
            } ?? FaultPlan.serveUntilStopped
        } catch {
            return Diagnostics.fail("accessory", "plan \(planPath ?? ""): \(error.message)", .usageError)
        }
        if profile.addressKind != .resolvablePrivate, let step = plan.steps.first(where: { $0.action == .rotateAddress }) {
            return Diagnostics.fail("accessory", "plan \(planPath ?? ""): \(step.name) rotates the address, but profile \(profilePath) advertises with a "
                                    + "\(profile.addressKind.rawValue) address (give it \"address\": {\"type\": \"resolvable-private\"})", .usageError)
        }
        if profile.security == nil, let step = plan.steps.first(where: { $0.action == .requirePairing }) {
            return Diagnostics.fail("accessory", "plan \(planPath ?? ""): \(step.name) requires pairing, but profile \(profilePath) has no \"security\" "
                                    + "(give it \"security\": {\"pairing\": \"just-works\"})", .usageError)
        }
        let pairing: PairingOptions?
        do {
            pairing = try profile.security?.accessoryOptions(rejects: false)
        } catch {
            return Diagnostics.fail("accessory", "profile \(profilePath): security: \(error)", .usageError)
        }
        let identity: LocalIdentity?
        do {
            identity = profile.addressKind == .publicAddress ? nil : try profile.identity ?? LocalIdentity.randomStatic()
        } catch {
            return Diagnostics.fail("accessory", "cannot make an identity address and IRK: \(error)", .infrastructureError)
        }
        do {
            database = try profile.database()
        } catch {
            return Diagnostics.fail("accessory", "profile \(profilePath): cannot build its GATT database: \(error)", .usageError)
        }
        let directory = URL(fileURLWithPath: out, isDirectory: true)
        do { try AccessoryReport.prepare(directory) } catch {
            return Diagnostics.fail("accessory", error.description, .usageError)
        }
        let (moniker, capture) = (controller.moniker, controller.capture)
        let capturePath = capture.path ?? ResultsLayout(directory).captures.appendingPathComponent("accessory.btsnoop").path
        let started = Date()
        let session: ControllerSession
        switch await controller.open("accessory", capture: CaptureArguments(path: capturePath, keys: capture.keys)) {
        case .success(let opened): session = opened
        case .failure(let status): return status
        }
        let device = LEDevice(host: session.host, database: database)
        if identity != nil || pairing != nil {
            // Bonds live for the run: a phone that pairs and reconnects re-encrypts with them.
            await device.configureSecurity(pairing: pairing, bonds: pairing == nil ? nil : InMemoryBondStore(), identity: identity,
                                           privateAddresses: profile.addressKind == .resolvablePrivate)
        }
        let player = AccessoryPlayer(device: device, profile: profile, plan: plan, database: database) { event in
            print(String(format: "%10.1f ms  ", event.milliseconds) + event.detail)
        }
        print("playing \"\(profile.name)\" on \(moniker) " + (planPath == nil ? "until stopped" : "with plan \(plan.name) (\(plan.steps.count) steps)") + "; Ctrl-C to stop")
        let running = Task { () -> Result<AccessoryPlayer.Result, RoleError> in
            do throws(RoleError) { return .success(try await player.run()) } catch { return .failure(error) }
        }
        let signalled = await firstOf(running)
        if signalled != nil { running.cancel() }
        let outcome = await running.value
        // A plan done is decided at the app's first move (the first request of a re-discovery): it gets a second
        // to finish what it started before the link is ended.
        if signalled == nil { try? await Task.sleep(for: Self.windDown) }
        try? await device.stopAdvertising()
        // A controller keeps a link up without its host: end it, or the phone stays connected to nobody.
        for link in await device.connections.values {
            _ = try? await link.disconnect(reason: .remoteUserTerminatedConnection, timeout: .seconds(2))
        }
        await device.close(); await session.close()
        let result: AccessoryPlayer.Result
        switch outcome {
        case .success(let played): result = played
        case .failure(let error): return Diagnostics.fail("accessory", "\(moniker): \(error)", .infrastructureError)
        }
        let context = RunContext(rig: controller.rigPath, command: (["hil"] + CommandLine.arguments.dropFirst()).joined(separator: " "), started: started,
                                 properties: ["adapter": moniker, "profile": profilePath, "plan": planPath ?? "none"])
        let relativeCapture = capture.path == nil ? "captures/accessory.btsnoop" : nil
        let records: [TestRecord]
        do {
            records = try AccessoryReport.write(result, plan: plan, profileName: profile.name, started: started, directory: directory,
                                                capturePath: relativeCapture, context: context)
        } catch {
            return Diagnostics.fail("accessory", "cannot write the report: \(error)", .infrastructureError)
        }
        for record in records { print("\(record.verdict.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(record.name): \(record.message ?? "")") }
        for scan in result.scans {
            print("scan     \(scan.summary)")
        }
        for image in result.images {
            print("slot \(image.slot)   \(image.version)  \(image.hash ?? "(no hash)")  " + [image.active ? "active" : nil, image.pending ? "pending" : nil,
                  image.confirmed ? "confirmed" : nil, image.permanent ? "permanent" : nil].compactMap { $0 }.joined(separator: ", "))
        }
        print("report: \(directory.path)/report.html")
        // Without a plan, being stopped is how the run ends.
        if let signalled, planPath != nil { print("stopped (\(signalled))"); return .interrupted }
        return records.contains { $0.verdict == .failed } ? .productFailure : .success
    }

    /// How long the accessory keeps serving after its plan is done, before it ends the links still up.
    static let windDown = Duration.seconds(1)

    /// Waits for `task` to finish or for SIGINT/SIGTERM, whichever comes first; the signal's name, or nil.
    static func firstOf(_ task: Task<Result<AccessoryPlayer.Result, RoleError>, Never>) async -> String? {
        let (stream, continuation) = AsyncStream<String?>.makeStream()
        Task { continuation.yield(await StopSignal.wait(upTo: nil)) }
        Task { _ = await task.value; continuation.yield(nil) }
        for await first in stream { return first }
        return nil
    }
}
