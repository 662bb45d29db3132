import DeviceControl
import Foundation
import HCI
import Simulation

/// `--power-follows`: an accessory's power follows a USB device's presence in sysfs.
extension SimulatedAirServer {
    func watch(_ follow: PowerFollow) -> Task<Void, Never> {
        let sysfs = options.sysfs
        var present = follow.isPresent(in: sysfs)
        return Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: PowerFollow.pollInterval)
                if Task.isCancelled { return }
                let now = follow.isPresent(in: sysfs)
                guard now != present else { continue }
                present = now
                guard let server = self else { return }
                let reply = await server.answer("power \(follow.accessory) \(now ? "on" : "off")")
                server.options.log("hil sim serve: USB device \(follow.location) \(now ? "appeared" : "left"): \(reply)")
            }
        }
    }
}
