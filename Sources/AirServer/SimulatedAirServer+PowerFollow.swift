import DeviceControl
import Foundation
import Roles
import Simulation

/// `--power-follows`: an accessory's power follows a USB device's presence in sysfs.
extension SimulatedAirServer {
    /// Looks at every followed device's presence every `PowerFollow.pollInterval` of the air's clock (sysfs
    /// announces nothing), all in one task on the server's loop — one wake-up a look however many accessories
    /// follow a device: in the lab twin's guest, under QEMU's software emulation, the served air is the
    /// busiest process even while idle — and powers an accessory on or off when its device came or went.
    func watch(_ follows: [PowerFollow]) -> Task<Void, Never> {
        let sysfs = options.sysfs
        let clock = clock
        var present = follows.map { $0.isPresent(in: sysfs) }
        return Task(executorPreference: loop) { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: PowerFollow.pollInterval, clock: clock)
                for (index, follow) in follows.enumerated() {
                    if Task.isCancelled { return }
                    let now = follow.isPresent(in: sysfs)
                    guard now != present[index] else { continue }
                    present[index] = now
                    guard let server = self else { return }
                    let reply = await server.answer("power \(follow.accessory) \(now ? "on" : "off")")
                    server.options.log("hil sim serve: USB device \(follow.location) \(now ? "appeared" : "left"): \(reply)")
                }
            }
        }
    }
}
