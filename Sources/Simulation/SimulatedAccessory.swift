import HostCore
import GATT
import SMP
import Roles
import SeededRandom
import HCIPackets
import MCUmgr
import Throughput

/// The firmware of a simulated accessory: on every power-on it boots (after its boot delay), opens its
/// controller, serves its GATT database and advertises — or misbehaves as its faults say. It runs on the
/// air's loop, like everything else in the world, so virtual time sees its work.
public actor SimulatedAccessory {
    package nonisolated let description: SimulatedAccessoryDescription
    package nonisolated let controller: SimulatedController
    public nonisolated var unownedExecutor: UnownedSerialExecutor { controller.air.loop.asUnownedSerialExecutor() }
    /// How many times it has booted since the world started.
    package private(set) var bootCount = 0
    /// The running firmware, between boot and power-off.
    package private(set) var device: LEDevice?
    var tasks: [Task<Void, Never>] = []
    var generation = 0
    /// Its bonds, kept across power cycles as flash keeps them (unless it forgets them at power-on).
    package nonisolated let bonds = InMemoryBondStore()
    /// Its IRK: what it distributes with its identity address.
    nonisolated let identityResolvingKey: [UInt8]
    /// Its MCUboot slots (with `dfu`), made at the first boot and kept across power cycles as flash keeps them.
    package private(set) var slots: MCUbootSlots?
    /// The charge it draws, with a current model (`description.current`): what a simulated meter measures.
    package nonisolated let chargeTrace: SimulatedChargeTrace?

    package init(description: SimulatedAccessoryDescription, controller: SimulatedController) {
        self.description = description
        self.controller = controller
        chargeTrace = description.current.map { controller.air.traceCharge(of: controller.name, model: $0, powered: controller.isPoweredOn) }
        // Drawn from its address, so a world replays byte for byte (a simulation's key protects nothing).
        var generator = SplitMix64(seed: controller.configuration.address.value ^ 0x4952_4B00)
        identityResolvingKey = (0..<16).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    /// The GATT database it serves (built anew at each boot, as firmware would).
    package nonisolated func makeDatabase() throws(GATTDatabaseError) -> GATTDatabase {
        let bench = (description.bench ? [SpeedService.definition(written: { _ in })] : [])
            + (description.dfu != nil ? [MCUmgrService.definition()] : [])
        guard let security = description.security else {
            return try GATTDatabase(services: [.gap(name: description.name), .gatt()] + description.services.map(\.service) + bench)
        }
        let level: ProtectionLevel = description.faults.servesProtectedUnencrypted ? .none : security.protection
        return try GATTDatabase(services: [.gap(name: description.name), .gatt()] + description.services.map(\.service) + bench
                                + [.protectedData(value: AccessorySecurity.protectedValue, level: level)])
    }

    /// Sets up the firmware's pairing, bonds and identity on a freshly opened device.
    func configureSecurity(of device: LEDevice) async throws {
        guard let security = description.security else { return }
        let faults = description.faults
        if faults.forgetsBondsOnPowerCycle { await bonds.forgetAll() }
        let configuration = controller.configuration
        let identity = LocalIdentity(address: configuration.address, addressType: configuration.addressType.isRandom ? .random : .public,
                                     identityResolvingKey: identityResolvingKey)
        let store: any BondStorage = faults.answersWithWrongLTK ? WrongKeyBondStore(bonds) : bonds
        await device.configureSecurity(pairing: try security.accessoryOptions(rejects: faults.rejectsPairing), bonds: store, identity: identity,
                                       privateAddresses: security.privacy)
    }

    /// Powers the controller and boots the firmware; returns once it advertises (or, with the
    /// stops-advertising fault, once it has decided not to).
    package func powerOn() async throws {
        await controller.powerOn()
        try await boot()
    }

    /// Cuts power: the controller leaves the air (its peers time out) and the firmware stops.
    package func powerOff() async {
        generation += 1
        await slots?.powerCut()
        for task in tasks { task.cancel() }
        tasks.removeAll()
        await controller.powerOff()
        if let device { await device.close() }
        device = nil
    }

    /// Whether it is powered and running.
    package var isRunning: Bool { device != nil }

    func boot() async throws {
        generation += 1
        let myGeneration = generation
        bootCount += 1
        if let chargeTrace { chargeTrace.add(chargeTrace.model.bootMicrocoulombs, at: controller.air.loop.now) }
        try await Task.sleep(for: .milliseconds(Int64(description.bootDelayMilliseconds)), clock: controller.air.clock)
        guard myGeneration == generation else { return }
        if let dfu = description.dfu {
            let slots = try self.slots ?? MCUbootSlots(running: dfu.factoryImage(), slotSize: dfu.slotSizeKiB * 1024, timing: dfu.timing,
                                                       faults: description.faults.dfu, signingKey: dfu.signingKey, loop: controller.air.loop)
            if self.slots == nil, let chargeTrace {
                let loop = controller.air.loop
                await slots.observeFlash { work in chargeTrace.add(chargeTrace.model.charge(of: work), at: loop.now) }
            }
            self.slots = slots
            // MCUboot first: a pending image is swapped in (or an unconfirmed one reverted) before the application
            // runs; when the power goes during the swap, or the device is bricked, no application runs.
            guard await slots.boot(), myGeneration == generation else { return }
        }
        let transport = try controller.openTransport()
        let host = try HCIHost(transport: transport)
        let device = LEDevice(host: host, database: try makeDatabase())
        self.device = device
        try await device.start()
        try await configureSecurity(of: device)
        let faults = description.faults
        if faults.rejectsPHY2M {
            // LE 1M and LE Coded (bits 0 and 2), each way.
            _ = try await host.send(LESetDefaultPHY(transmitPHYs: 0x05, receivePHYs: 0x05))
        }
        if let slots {
            try await device.suggestDefaultDataLength(octets: 251)
            let server = try await MCUmgrServer(device: device, slots: slots)
            tasks.append(Task(executorPreference: controller.air.loop) { [weak self] in
                await server.run { [weak self] in await self?.scheduleReset() }
            })
        }
        if description.bench {
            // Streaming firmware asks for long PDUs on every link (as Zephyr's automatic data length update does);
            // its controller starts the Data Length Update procedure itself once connected.
            try await device.suggestDefaultDataLength(octets: 251)
            let server = try await BenchServer(device: device)
            let halves = faults.halvesNotificationRate
            let halvedPace: @Sendable (LEConnection) async -> Duration? = { link in await Self.notificationTime(on: link) * 2 }
            let behaviour = BenchServer.Behaviour(stopsWhenMTUGrows: faults.stopsNotifyingWhenMTUGrows, pace: halves ? halvedPace : nil)
            tasks.append(Task(executorPreference: controller.air.loop) { await server.run(behaviour: behaviour) })
        }
        if let limit = faults.stopsAdvertisingAfterPowerCycles, bootCount > limit { return }
        let incoming = await device.incomingConnections()
        tasks.append(Task(executorPreference: controller.air.loop) { [weak self] in
            for await link in incoming { await self?.accepted(link) }
        })
        if faults.rebootsOnWrite {
            let writes = await device.attributeWrites()
            tasks.append(Task(executorPreference: controller.air.loop) { [weak self] in
                for await _ in writes {
                    await self?.scheduleReboot()
                    return
                }
            })
        }
        let interval = UInt16(min(max(description.advertisingIntervalMilliseconds / 0.625, 32), 16_384))
        try await device.startAdvertising(Advertisement(name: description.name, serviceUUIDs: description.services.map(\.uuid), interval: interval))
    }

    func accepted(_ link: LEConnection) async {
        let faults = description.faults
        if let milliseconds = description.requestsIntervalMilliseconds {
            tasks.append(Task(executorPreference: controller.air.loop) {
                _ = try? await link.updateParameters(await Self.parameters(asking: milliseconds, on: link))
            })
        }
        if let malicious = faults.maliciousATT {
            await link.setATTInterceptor(malicious.interceptor)
        }
        if let slow = faults.slowATTMilliseconds {
            let late = SimulatedATTFault.delay(.milliseconds(Int64(slow)))
            await link.setATTInterceptor(SimulatedATTFault.interceptor { _ in late })
        }
        if let after = faults.dropsLinkAfterMilliseconds {
            let clock = controller.air.clock
            tasks.append(Task(executorPreference: controller.air.loop) {
                try? await Task.sleep(for: .milliseconds(Int64(after)), clock: clock)
                _ = try? await link.disconnect(reason: .remoteUserTerminatedConnection)
            })
        }
    }

    /// A firmware reset: the controller restarts (peers time out), then boots again. Runs in its own task:
    /// the power-off cancels the firmware's tasks, including the one that saw the write.
    func scheduleReboot() {
        Task(executorPreference: controller.air.loop) { [weak self] in
            await self?.powerOff()
            try? await self?.powerOn()
        }
    }

    /// MCUmgr's reset: the answer is sent, and the reboot comes 250 ms later (Zephyr's default
    /// CONFIG_MCUMGR_GRP_OS_RESET_MS), so that the answer leaves the controller first.
    func scheduleReset() {
        let clock = controller.air.clock
        Task(executorPreference: controller.air.loop) { [weak self] in
            try? await Task.sleep(for: .milliseconds(250), clock: clock)
            await self?.scheduleReboot()
        }
    }

    /// The parameters it asks for: the interval in 1.25 ms units, the link's latency, and a supervision
    /// timeout of at least the link's and more than (1 + latency) × interval × 2 (Core v5.4 Vol 4 Part E §7.8.18).
    static func parameters(asking milliseconds: Double, on link: LEConnection) async -> ConnectionParameters {
        let interval = UInt16(min(max((milliseconds / 1.25).rounded(), 6), 3200))
        let latency = await link.latency
        let needed = ConnectionParameters.shortestSupervisionTimeout(interval: interval, latency: latency)
        let timeout = min(3200, max(await link.supervisionTimeout, needed))
        return ConnectionParameters(intervalMin: interval, intervalMax: interval, latency: latency, supervisionTimeout: timeout)
    }

    /// How long one notification of ATT_MTU − 3 octets takes to carry on `link` as it stands, by the air's own
    /// formula (docs/link-layer.md): its L2CAP PDU cut into PDUs of our effective TX data length, each riding one
    /// exchange with the central's empty PDU, as many exchanges per event as fit in the interval.
    static func notificationTime(on link: LEConnection) async -> Duration {
        let mtu = await link.gatt.mtu
        let phy = RadioPHY(rawValue: await link.phy.transmitter) ?? .le1M
        let octets = max(1, Int(await link.dataLength.transmit.octets))
        let encrypted = await link.security.encrypted
        let interval = Int(await link.interval) * 1_250
        let fragments = (mtu + 4 + octets - 1) / octets
        let exchange = AirTime.exchange(central: AirTime.pdu(payload: 0, phy: phy, encrypted: encrypted),
                                        peripheral: AirTime.pdu(payload: min(octets, mtu + 4), phy: phy, encrypted: encrypted))
        let perEvent = max(1, interval / exchange)
        return .microseconds(Int64(interval * fragments / perEvent))
    }
}
