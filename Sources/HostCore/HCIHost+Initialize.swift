import HCIPackets
extension HCIHost {
    /// Resets the controller and brings it to `poweredOn`: Reset, then the reads that describe it, the
    /// event masks, and the LE buffer sizes. State goes `resetting` → `poweredOn` (or `unsupported` when
    /// the controller has no LE). A Reset ends every connection without Disconnection Complete events, so
    /// the host clears its table first.
    @discardableResult
    public func initialize(timeout: Duration? = nil) async throws(HCIError) -> ControllerInfo {
        if !started { try start() }
        clearConnections(why: "HCI Reset (a Reset ends every connection without Disconnection Complete)")
        setState(.resetting)
        do {
            try await send(Reset(), timeout: timeout, anyState: true)
            let version = try await send(ReadLocalVersionInformation(), timeout: timeout, anyState: true)
            let address = try await send(ReadBDADDR(), timeout: timeout, anyState: true)
            let commands = try await send(ReadLocalSupportedCommands(), timeout: timeout, anyState: true)
            let lmpFeatures = try await send(ReadLocalSupportedFeatures(), timeout: timeout, anyState: true)
            let buffers = try await send(ReadBufferSize(), timeout: timeout, anyState: true)
            var info = ControllerInfo(
                address: address, hciVersion: version.hciVersion, hciSubversion: version.hciSubversion,
                lmpVersion: version.lmpVersion, lmpSubversion: version.lmpSubversion, manufacturer: version.manufacturer,
                lmpFeatures: lmpFeatures, leFeatures: [], supportedCommands: commands,
                aclBufferLength: buffers.aclDataPacketLength, aclBufferCount: buffers.totalNumACLDataPackets,
                leACLBufferLength: 0, leACLBufferCount: 0)
            do {
                info.leFeatures = try await send(LEReadLocalSupportedFeatures(), timeout: timeout, anyState: true)
            } catch .commandFailed(_, .unknownHCICommand) {
                controllerInfo = info
                setState(.unsupported)
                return info
            }
            try await send(SetEventMask(), timeout: timeout, anyState: true)
            try await send(LESetEventMask(), timeout: timeout, anyState: true)
            if info.supportsLEReadBufferSizeV2 {
                let le = try await send(LEReadBufferSizeV2(), timeout: timeout, anyState: true)
                info.leACLBufferLength = le.leACLDataPacketLength
                info.leACLBufferCount = le.totalNumLEACLDataPackets
                info.isoBufferLength = le.isoDataPacketLength
                info.isoBufferCount = le.totalNumISODataPackets
            } else {
                let le = try await send(LEReadBufferSize(), timeout: timeout, anyState: true)
                info.leACLBufferLength = le.leACLDataPacketLength
                info.leACLBufferCount = le.totalNumLEACLDataPackets
            }
            let effective = info.effectiveLEBuffers
            aclFlow.configure(length: effective.length, count: effective.count)
            controllerInfo = info
            setState(.poweredOn)
            return info
        } catch {
            if closedReason == nil && state == .resetting { setState(.unknown) }
            throw error
        }
    }

    /// Disconnects a connection and waits for its Disconnection Complete; returns the reason the
    /// controller reports (normally 0x16 Connection Terminated By Local Host).
    @discardableResult
    public func disconnect(handle: UInt16, reason: HCIStatus = .remoteUserTerminatedConnection,
                           timeout: Duration = .seconds(5)) async throws(HCIError) -> HCIStatus {
        guard connections[handle] != nil else { throw .unknownConnection(handle: handle) }
        let completion = try expect("Disconnection Complete for handle 0x\(hex4(handle))", timeout: timeout) { event -> HCIStatus? in
            if case .hci(.disconnectionComplete(let complete)) = event, complete.handle == handle { return complete.reason }
            return nil
        }
        do {
            try await send(Disconnect(handle: handle, reason: reason))
        } catch {
            discard(completion)
            throw error
        }
        return try await wait(for: completion)
    }
}
