import HCIPackets
/// A command waiting for its Command Complete or Command Status.
struct PendingCommand {
    let id: UInt64
    let packet: HCICommandPacket
    let completion: HCICommandCompletion
    let timeout: Duration
    let started: ContinuousClock.Instant
    /// Nil once its caller was cancelled: a sent command stays listed so that its answer is absorbed.
    var continuation: UnsafeContinuation<Result<[UInt8], HCIError>, Never>?
    var timer: UInt64 = 0

    func finish(_ result: Result<[UInt8], HCIError>) { continuation?.resume(returning: result) }
}

extension HCIHost {
    /// Sends a command and waits for its Command Complete (or, for commands the controller answers with
    /// Command Status, for a successful status), within `timeout` (default 2 s).
    ///
    /// Throws `commandFailed` with the status's spec name on a non-zero status, `commandTimeout` naming
    /// the opcode and the deadline when the controller stays silent, `notPoweredOn` when the adapter is
    /// not `poweredOn` and the command is neither Reset, a read nor vendor-specific, and `cancelled` at once
    /// when the calling task is cancelled (a command already sent still has its answer absorbed).
    public func send<Command: HCICommand>(_ command: Command, timeout: Duration? = nil) async throws(HCIError) -> Command.Response {
        try await send(command, timeout: timeout, anyState: false)
    }

    func send<Command: HCICommand>(_ command: Command, timeout: Duration?, anyState: Bool) async throws(HCIError) -> Command.Response {
        let returned = try await sendRaw(command.packet, completion: Command.completion, timeout: timeout, anyState: anyState)
        var reader = HCIReturnParameters(returned, opcode: Command.opcode)
        do {
            return try Command.decodeResponse(&reader)
        } catch {
            throw .malformed(error)
        }
    }

    /// Sends a command packet and returns its return parameters after Status (empty for Command Status).
    public func sendRaw(_ packet: HCICommandPacket, completion: HCICommandCompletion = .complete,
                        timeout: Duration? = nil) async throws(HCIError) -> [UInt8] {
        try await sendRaw(packet, completion: completion, timeout: timeout, anyState: false)
    }

    func sendRaw(_ packet: HCICommandPacket, completion: HCICommandCompletion, timeout: Duration?,
                 anyState: Bool) async throws(HCIError) -> [UInt8] {
        if let closedReason { throw .transportClosed(closedReason) }
        if !anyState && state != .poweredOn && !HCIHost.allowedBeforePoweredOn(packet.opcode) {
            throw .notPoweredOn(opcode: packet.opcode, state: state)
        }
        if !started { try start() }
        let timeout = timeout ?? defaultCommandTimeout
        let id = nextWaitID
        nextWaitID += 1
        let started = loop.now
        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<[UInt8], HCIError>, Never>) in
                var command = PendingCommand(id: id, packet: packet, completion: completion, timeout: timeout, started: started,
                                             continuation: continuation)
                command.timer = loop.schedule(at: started.advanced(by: timeout)) { [weak self] in
                    guard let self else { return }
                    self.assumeIsolated { host in host.commandTimedOut(id) }
                }
                commandQueue.append(command)
                pumpCommands()
            }
        } onCancel: {
            onLoop { host in host.commandCancelled(id) }
        }
        return try result.get()
    }

    /// Reset, reads and vendor-specific commands (OGF 0x3F: a driver's setup, such as a firmware download,
    /// which comes before the host initializes the controller) may be issued in any state; everything else
    /// needs `poweredOn`.
    static func allowedBeforePoweredOn(_ opcode: HCIOpcode) -> Bool {
        if opcode == .reset || opcode.ogf == 0x04 || opcode.ogf == 0x3F { return true }
        return opcode.name.map { $0.hasPrefix("Read ") || $0.hasPrefix("LE Read ") } ?? false
    }

    /// Writes queued commands while the controller grants credits.
    func pumpCommands() {
        while commandCredits > 0, !commandQueue.isEmpty {
            let command = commandQueue.removeFirst()
            commandCredits -= 1
            do {
                try transport.send(.command(command.packet))
                sentCommands.append(command)
            } catch {
                loop.cancelTimer(command.timer)
                command.finish(.failure(.transportClosed(error)))
            }
        }
    }

    func commandTimedOut(_ id: UInt64) {
        if let index = sentCommands.firstIndex(where: { $0.id == id }) {
            let command = sentCommands.remove(at: index)
            // The controller will not answer this one; let the next command go rather than wedge.
            commandCredits = max(commandCredits, 1)
            command.finish(.failure(.commandTimeout(opcode: command.packet.opcode, timeout: command.timeout, sent: true)))
            pumpCommands()
        } else if let index = commandQueue.firstIndex(where: { $0.id == id }) {
            let command = commandQueue.remove(at: index)
            command.finish(.failure(.commandTimeout(opcode: command.packet.opcode, timeout: command.timeout, sent: false)))
        }
    }

    /// The caller's task was cancelled: a queued command is dropped; a sent one is answered to nobody.
    func commandCancelled(_ id: UInt64) {
        func cancelled(_ command: PendingCommand) -> HCIError {
            .cancelled(awaited: "Command Complete or Command Status for \(command.packet.opcode)", waited: command.started.duration(to: loop.now))
        }
        if let index = commandQueue.firstIndex(where: { $0.id == id }) {
            let command = commandQueue.remove(at: index)
            loop.cancelTimer(command.timer)
            command.finish(.failure(cancelled(command)))
        } else if let index = sentCommands.firstIndex(where: { $0.id == id }), sentCommands[index].continuation != nil {
            sentCommands[index].finish(.failure(cancelled(sentCommands[index])))
            sentCommands[index].continuation = nil
        }
    }

    /// Completes the oldest sent command with this opcode.
    func completeCommand(opcode: HCIOpcode, credits: UInt8, result: Result<[UInt8], HCIError>, viaStatus: Bool) {
        commandCredits = Int(credits)
        defer { pumpCommands() }
        if opcode.rawValue == 0 { return } // a credit-only update (HCI_Command_Complete for opcode 0x0000)
        guard let index = sentCommands.firstIndex(where: { $0.packet.opcode == opcode }) else {
            noteAnomaly("\(viaStatus ? "Command Status" : "Command Complete") for \(opcode), which was not sent or already finished")
            return
        }
        let command = sentCommands.remove(at: index)
        loop.cancelTimer(command.timer)
        command.finish(result)
    }

    func failAllCommands(_ error: HCIError) {
        let all = sentCommands + commandQueue
        // Commands the controller will never answer must not hold its credit: a Reset has to get through.
        if !sentCommands.isEmpty { commandCredits = max(commandCredits, 1) }
        sentCommands.removeAll()
        commandQueue.removeAll()
        for command in all {
            loop.cancelTimer(command.timer)
            command.finish(.failure(error))
        }
    }

    func noteAnomaly(_ text: String) {
        anomalies.append(text)
        if anomalies.count > 100 { anomalies.removeFirst(anomalies.count - 100) }
        publish(.anomaly(text))
    }
}
