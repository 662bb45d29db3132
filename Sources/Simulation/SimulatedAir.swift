import HCIPackets
import EventLoops
import SeededRandom
import Synchronization

/// The radio medium shared by the controllers of one world, and the one place their state lives.
///
/// Everything simulated — command handling, advertising events, connection events, supervision
/// timeouts — runs on the air's single `EventLoop` thread: the actor uses the loop as its executor, and
/// bytes from hosts and timer callbacks enter it with `loop.execute`/`loop.schedule`, so the simulation
/// is serialized without locks and an idle world sleeps in `poll(2)`. Timers are armed only for
/// something due (the next advertising event of an advertiser, the next connection event that carries
/// data or a procedure and the steps of its exchanges, a supervision timeout) and cancelled when it no
/// longer is.
package actor SimulatedAir {
    /// A snapshot of what the air holds, for leak checks and diagnostics.
    package struct Statistics: Sendable, Hashable {
        /// Powered controllers.
        package var controllers: Int
        /// Links on the air (including ones waiting for a supervision timeout).
        package var links: Int
        /// Timers the air has armed (advertising, connection events, supervision timeouts, LL response timeouts).
        package var armedTimers: Int
        /// Connection handles in use, over all controllers.
        package var handles: Int
        /// Advertisers currently advertising, scanners scanning, initiators with LE Create Connection pending.
        package var advertisers: Int
        package var scanners: Int
        package var initiators: Int
        /// LE ACL buffers in use, over all controllers.
        package var aclBuffersInUse: Int
    }

    /// The loop all simulation runs on.
    package nonisolated let loop: EventLoop
    /// The world's clock: the hosts of its controllers keep their deadlines on it, and measurements of the
    /// bench read it.
    package nonisolated var clock: LoopClock { loop.clock }
    package nonisolated let timing: SimulationTiming
    package nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    /// Powered controllers by name.
    var models: [String: ControllerModel] = [:] {
        didSet { modelsInOrder = models.keys.sorted().compactMap { models[$0] } }
    }
    /// The powered controllers in name order, kept as controllers come and go: wherever the air draws
    /// random numbers per controller, a seeded world must draw them in the same order every run (a
    /// dictionary's order differs per instance).
    private(set) var modelsInOrder: [ControllerModel] = []
    /// Links by ID.
    var links: [UInt64: SimulatedLink] = [:]
    var nextLinkID: UInt64 = 1
    var random: SplitMix64
    private nonisolated let stopped = Mutex(false)
    /// The charge traces of controllers whose accessory has a current model, by controller name
    /// (`SimulatedAir+Charge`).
    nonisolated let chargeTraces = Mutex<[String: SimulatedChargeTrace]>([:])

    /// Creates an air on a new event loop thread, on real time or a new virtual time as `timing.clock` says.
    /// On virtual time the loop is the whole world's (hosts on its controllers share it) and drives run on it.
    package init(timing: SimulationTiming = .realTime) throws(EventLoopError) {
        if timing.clock == .virtual {
            let time = VirtualTime()
            self.loop = try EventLoop(label: "sim-air", clock: time.clock)
            time.drive(on: loop)
        } else {
            self.loop = try EventLoop(label: "sim-air")
        }
        self.timing = timing
        var system = SystemRandomNumberGenerator()
        self.random = SplitMix64(seed: timing.seed ?? system.next())
    }

    deinit {
        stop()
    }

    /// Ends the loop thread. Timers still armed never fire; the air does nothing after this.
    package nonisolated func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        if first { loop.shutdown() }
    }

    /// What the air holds now.
    package func statistics() -> Statistics {
        var stats = Statistics(controllers: models.count, links: links.count, armedTimers: 0, handles: 0, advertisers: 0,
                               scanners: 0, initiators: 0, aclBuffersInUse: 0)
        for model in models.values {
            stats.handles += model.links.count
            stats.armedTimers += model.advertising.timer == nil ? 0 : 1
            stats.advertisers += model.advertising.enabled ? 1 : 0
            stats.scanners += model.scanning.enabled ? 1 : 0
            stats.initiators += model.initiation == nil ? 0 : 1
            stats.aclBuffersInUse += model.aclBuffersInUse
        }
        for link in links.values {
            stats.armedTimers += (link.eventTimer == nil ? 0 : 1) + (link.supervisionTimer == nil ? 0 : 1)
                + (link.encryption?.responseTimer == nil ? 0 : 1)
        }
        return stats
    }

    // MARK: Controllers coming and going

    /// Puts powered-on controllers on the air from outside the loop (a world's construction); anything
    /// sent to the loop after this call sees them.
    nonisolated func install(_ controllers: [SimulatedController]) {
        loop.execute { [self] in
            self.assumeIsolated { air in
                for controller in controllers where air.models[controller.name] == nil {
                    air.models[controller.name] = ControllerModel(controller: controller)
                }
            }
        }
    }

    /// A controller powers on: a fresh model, in its power-on state.
    func add(_ controller: SimulatedController) {
        guard models[controller.name] == nil else { return }
        models[controller.name] = ControllerModel(controller: controller)
        trace(of: controller.name)?.powerOn(at: loop.now)
    }

    /// A controller loses power: it leaves the air. Its peers hear nothing more from it and time out
    /// after each link's supervision timeout; its pending work is dropped.
    func remove(_ name: String) {
        guard let model = models.removeValue(forKey: name) else { return }
        trace(of: name)?.powerOff(at: loop.now)
        stopAdvertising(model)
        model.scanning = ControllerModel.Scanning()
        model.initiation = nil
        dropLinks(of: model)
    }

    // MARK: Bytes from hosts

    /// Hands bytes a host wrote on `session` to the named controller, on the loop.
    nonisolated func receive(_ bytes: [UInt8], for name: String, session: UInt64) {
        loop.execute { [self] in
            self.assumeIsolated { air in air.hostWrote(bytes, for: name, session: session) }
        }
    }

    func hostWrote(_ bytes: [UInt8], for name: String, session: UInt64) {
        guard let model = models[name], model.controller?.isAttached(session: session) == true else { return }
        if model.session != session {
            // A new host on the controller's UART: whatever the last one left half-written is gone.
            model.session = session
            model.framer = H4Framer(maximumDataLength: 65_535)
        }
        let packets: [HCIPacket]
        do {
            packets = try model.framer.feed(bytes)
        } catch {
            // Lost H4 synchronization: report it as a hardware error and start over at the next byte.
            model.framer = H4Framer(maximumDataLength: 65_535)
            emit(.hardwareError(code: 0x01), to: model)
            return
        }
        for packet in packets {
            // A command may have reset or powered off the controller; later packets go to what is there now.
            guard let current = models[name], current === model else { return }
            switch packet {
            case .command(let command): handleCommand(command, model)
            case .aclData(let acl): hostSentACL(acl, model)
            case .event, .other: break // hosts do not send events; SCO and ISO are not modelled
            }
        }
    }

    // MARK: Output

    /// Sends an event to a controller's host, unless the host masked it.
    func emit(_ event: HCIEvent, to model: ControllerModel) {
        guard model.wants(event) else { return }
        model.controller?.deliver(HCIPacket.event(event.encoded()).h4Bytes)
    }

    /// Sends ACL data to a controller's host.
    func emit(_ packet: ACLDataPacket, to model: ControllerModel) {
        model.controller?.deliver(HCIPacket.aclData(packet).h4Bytes)
    }

    /// Command Complete with Num_HCI_Command_Packets 1; return parameters only on success.
    func complete(_ opcode: HCIOpcode, _ status: HCIStatus, _ model: ControllerModel, _ returnParameters: [UInt8] = []) {
        emit(.commandComplete(numCommandPackets: 1, opcode: opcode,
                              returnParameters: [status.rawValue] + (status == .success ? returnParameters : [])), to: model)
    }

    /// Command Status with Num_HCI_Command_Packets 1.
    func commandStatus(_ opcode: HCIOpcode, _ status: HCIStatus, _ model: ControllerModel) {
        emit(.commandStatus(status: status, numCommandPackets: 1, opcode: opcode), to: model)
    }

    // MARK: Randomness

    /// A uniform random duration in 0…`maximum`.
    func randomDuration(upTo maximum: Duration) -> Duration {
        guard maximum > .zero else { return .zero }
        return maximum.multiplied(by: Double.random(in: 0...1, using: &random))
    }

    /// A uniform random Int in `range`.
    func randomInt(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    /// True with probability `p`.
    func chance(_ p: Double) -> Bool { p >= 1 || Double.random(in: 0..<1, using: &random) < p }
}
