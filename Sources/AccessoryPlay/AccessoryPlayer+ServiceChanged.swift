import GATT
import Roles

extension AccessoryPlayer {
    /// A `service_changed` step: serves the profile with (or again without) its added service and indicates
    /// Service Changed for the range from the first handle that changed to 0xFFFF, if the central enabled it.
    func changeDatabase(step index: Int, link: LEConnection?) async {
        let step = plan.steps[index]
        let old = log.database
        databaseChanges += 1
        let adding = databaseChanges % 2 == 1
        let new: GATTDatabase
        do {
            new = try profile.database(withAddedService: adding)
        } catch {
            outcomes[index].notToldBecause = "the changed database could not be built: \(error)"
            log.record(.serviceChanged, "\(step.name): \(outcomes[index].notToldBecause ?? "")")
            return
        }
        let from = UInt16(min(old.attributeCount, new.attributeCount) + 1)
        await device.serve(new)
        log.database = new
        outcomes[index].changedFromHandle = from
        let change = "\(adding ? "added" : "removed") service \(AccessoryProfile.addedService.uuid), handles 0x\(ATTRequestKind.hex(from))–0xFFFF changed"
        guard let link, await link.isConnected else {
            tellOnNextConnection.insert(index)
            log.record(.serviceChanged, "\(change) with no central connected: the next one finds the new database")
            return
        }
        guard let valueHandle = new.valueHandle(of: .serviceChanged) else {
            outcomes[index].notToldBecause = "the database has no Service Changed characteristic"
            log.record(.serviceChanged, handle: link.handle, "\(change); \(outcomes[index].notToldBecause ?? "")")
            return
        }
        do {
            if try await link.indicate(valueHandle: valueHandle, value: [UInt8(from & 0xFF), UInt8(from >> 8), 0xFF, 0xFF]) {
                outcomes[index].centralToldAt = log.record(.serviceChanged, handle: link.handle, "\(change); Service Changed indicated and confirmed")
            } else {
                outcomes[index].notToldBecause = "the central had not enabled Service Changed indications (its CCCD), so it was not told"
                log.record(.serviceChanged, handle: link.handle, "\(change); not indicated: the central had not enabled Service Changed indications")
            }
        } catch {
            outcomes[index].notToldBecause = "the Service Changed indication failed: \(error)"
            log.record(.serviceChanged, handle: link.handle, "\(change); \(outcomes[index].notToldBecause ?? "")")
        }
    }
}
