import HCIPackets
// An advertiser's view of active scanning: the scan requests its controller reports.

/// One SCAN_REQ an active scanner sent to our advertising set, as LE Scan Request Received reported it
/// (Core v5.4 Vol 4 Part E §7.7.65.19; Vol 6 Part B §2.3.2.1): a scanner's address and when it came.
public struct ScanRequest: Sendable, Hashable {
    /// Scanner_Address and Scanner_Address_Type: the scanner's own address (often a resolvable private one).
    public var scanner: BDAddress
    public var scannerType: AddressType
    /// Advertising_Handle of the set that was scanned.
    public var advertisingHandle: UInt8
    /// When the host received the event, on the host's clock.
    public var received: ContinuousClock.Instant
}

extension LEDevice {
    /// Scan requests to our advertising from now on. The controller reports them only for an advertisement
    /// with `scanRequestNotifications` on a controller with extended advertising
    /// (`ControllerInfo.supportsExtendedAdvertising`); a passive scanner never sends one.
    public func scanRequests() -> AsyncStream<ScanRequest> {
        scanRequestObservers.stream(removingOn: host.loop) { [weak self] id in await self?.removeScanRequestObserver(id) }
    }

    func removeScanRequestObserver(_ id: UInt64) { scanRequestObservers.remove(id) }

    func scanRequested(by scanner: BDAddress, type: AddressType, set: UInt8) {
        let request = ScanRequest(scanner: scanner, scannerType: type, advertisingHandle: set, received: clock.now)
        scanRequestObservers.yield(request)
    }
}
