import HCIPackets

extension LEMetaEvent {
    /// The subevent code this event encodes with.
    var encodedSubevent: UInt8 {
        switch self {
        case .connectionComplete(let complete): complete.subevent
        case .advertisingReports: LEMetaEvent.Subevent.advertisingReport
        case .connectionUpdateComplete: LEMetaEvent.Subevent.connectionUpdateComplete
        case .readRemoteFeaturesComplete: LEMetaEvent.Subevent.readRemoteFeaturesComplete
        case .longTermKeyRequest: LEMetaEvent.Subevent.longTermKeyRequest
        case .dataLengthChange: LEMetaEvent.Subevent.dataLengthChange
        case .phyUpdateComplete: LEMetaEvent.Subevent.phyUpdateComplete
        case .scanTimeout: LEMetaEvent.Subevent.scanTimeout
        case .advertisingSetTerminated: LEMetaEvent.Subevent.advertisingSetTerminated
        case .scanRequestReceived: LEMetaEvent.Subevent.scanRequestReceived
        case .channelSelectionAlgorithm: LEMetaEvent.Subevent.channelSelectionAlgorithm
        case .unknown(let subevent, _): subevent
        }
    }
}
