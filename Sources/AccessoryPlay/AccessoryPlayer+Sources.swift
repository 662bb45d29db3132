import Roles

/// The profile's notification sources, played while the plan runs.
extension AccessoryPlayer {
    /// Writes `source`'s next value every interval on the clock (on the schedule it started with, so a slow
    /// notification does not shift the rest) and notifies each central that subscribed, until cancelled; then records how
    /// many values it made and how many notifications went out.
    func play(_ source: NotificationSource) async {
        let what = "\(source.characteristic)'s \(source.kindWord)"
        guard let handle = log.database.valueHandle(of: source.characteristic) else {
            log.record(.notifications, "\(what): the database has no \(source.characteristic), nothing sent")
            return
        }
        let started = clock.now
        var index = 0, notifications = 0
        while true {
            let elapsed = (index + 1) * source.intervalMilliseconds
            try? await clock.sleep(until: started.advanced(by: .milliseconds(elapsed)), tolerance: nil)
            if Task.isCancelled { break }
            notifications += (try? await device.updateValue(source.value(index, atMilliseconds: Double(elapsed)), at: handle)) ?? 0
            index += 1
        }
        log.record(.notifications, "\(what): \(index) values every \(source.intervalMilliseconds) ms, \(notifications) notifications to subscribed centrals")
    }
}

extension NotificationSource {
    /// What makes the values, in a report's words.
    var kindWord: String {
        switch kind {
        case .counter: "counter"
        case .waveform(let shape, _, _, _, _): "\(shape.rawValue) wave"
        case .values(let values): "\(values.count) values from a file"
        }
    }
}
