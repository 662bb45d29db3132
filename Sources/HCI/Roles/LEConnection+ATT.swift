extension LEConnection {
    func attBearerEnded(reason: HCIStatus, note: String?) {}
    func receivedATT(_ payload: [UInt8]) async {}
}
