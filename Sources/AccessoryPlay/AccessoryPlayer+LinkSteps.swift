import HCIPackets
import HostCore
import Roles

/// The steps that act on the link and keep it: a notification flood, a connection parameter update.
extension AccessoryPlayer {
    /// `notify_flood`: notifications of `characteristic` back to back for `milliseconds`, each as long as the
    /// ATT_MTU allows (a 4-octet counter, then filler), as fast as the host's ACL flow control lets them out.
    func notifyFlood(step index: Int, link: LEConnection?, characteristic: BluetoothUUID, milliseconds: Int) async {
        let name = plan.steps[index].name
        guard let link, await link.isConnected else {
            log.record(.notifications, "\(name): no central connected, nothing sent")
            return
        }
        guard let valueHandle = log.database.valueHandle(of: characteristic) else {
            log.record(.notifications, handle: link.handle, "\(name): the profile has no characteristic \(characteristic), nothing sent")
            return
        }
        let octets = max(4, await link.gatt.mtu - 3)
        let started = log.milliseconds()
        var sent = 0
        var stopped: String?
        while log.milliseconds() - started < Double(milliseconds), !Task.isCancelled {
            var value = [UInt8](repeating: 0x55, count: octets)
            for shift in 0..<4 { value[shift] = UInt8(truncatingIfNeeded: sent >> (8 * shift)) }
            do {
                guard try await link.notify(valueHandle: valueHandle, value: value) else {
                    stopped = "the central had not subscribed to notifications of \(characteristic)"
                    break
                }
            } catch {
                stopped = "\(error)"
                break
            }
            sent += 1
        }
        let took = max(log.milliseconds() - started, 0.001)
        let rate = Double(sent) / took * 1000
        outcomes[index].notificationsSent = sent
        outcomes[index].notificationsPerSecond = rate
        log.record(.notifications, handle: link.handle, "\(name): \(sent) notifications of \(characteristic), \(octets) octets each, in "
                   + "\(RoundedText.ms(took)) (\(Int(rate.rounded())) a second)" + (stopped.map { "; stopped: \($0)" } ?? ""))
    }

    /// `update_parameters`: asks the central for `parameters` and records what it answered; accepted means the
    /// connection now has them.
    func updateParameters(step index: Int, link: LEConnection?, _ parameters: ConnectionParameters) async {
        let name = plan.steps[index].name
        let asked = Self.describe(interval: parameters.intervalMin, latency: parameters.latency, timeout: parameters.supervisionTimeout)
        guard let link, await link.isConnected else {
            outcomes[index].parametersAccepted = false
            outcomes[index].parametersNote = "no central was connected to ask for \(asked)"
            log.record(.parameters, "\(name): \(outcomes[index].parametersNote ?? "")")
            return
        }
        let started = log.milliseconds()
        do {
            try await link.updateParameters(parameters, timeout: .milliseconds(FaultPlan.Expectation.parameterUpdateMilliseconds))
            let (interval, latency, timeout) = (await link.interval, await link.latency, await link.supervisionTimeout)
            let now = Self.describe(interval: interval, latency: latency, timeout: timeout)
            let accepted = (parameters.intervalMin...parameters.intervalMax).contains(interval) && latency == parameters.latency
                && timeout == parameters.supervisionTimeout
            outcomes[index].parametersAccepted = accepted
            outcomes[index].parametersNote = accepted ? "the central accepted \(now)" : "asked for \(asked); the central chose \(now)"
        } catch {
            outcomes[index].parametersAccepted = false
            outcomes[index].parametersNote = "the central did not accept \(asked): \(error)"
        }
        outcomes[index].parametersAnsweredAfter = log.milliseconds() - started
        log.record(.parameters, handle: link.handle, "\(name): \(outcomes[index].parametersNote ?? "")")
    }

    static func describe(interval: UInt16, latency: UInt16, timeout: UInt16) -> String {
        "interval \(RoundedText.ms(Double(interval) * 1.25)), latency \(latency), supervision timeout \(Int(timeout) * 10) ms"
    }
}
