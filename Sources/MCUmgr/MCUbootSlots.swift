import EventLoops
import MCUbootImage

/// The flash of a simulated MCUboot device, as MCUmgr's image management sees it: the primary slot runs an image,
/// uploads go to the secondary slot (erased by the first chunk, written chunk by chunk, each taking the time
/// `Timing` gives on the loop's clock), `test` marks it pending, a reset swaps it in (MCUboot's swap: it checks
/// the image's hash first, and with a `signingKey` its signature as MCUboot's image validation does, and erases an
/// image that fails), an image booted for test and not confirmed is
/// swapped back at the next reset, and a confirmed one stays. The upload's offset survives a reset; a chunk whose
/// write the power cut is not counted, and an erase the power cut leaves the slot empty with no upload. A power cut
/// during a swap leaves it in progress, and the next boot finishes it, as MCUboot's swap status lets it. Runs on
/// `loop`.
package actor MCUbootSlots {
    /// Faults of a device's update path, for a campaign to catch.
    package struct Faults: Sendable, Hashable {
        /// The upload's offset is lost at a reset (kept in RAM): the next upload starts over from 0.
        package var losesUploadOffsetAtReset: Bool
        /// The application confirms whatever image it booted, at once: a test image never reverts.
        package var confirmsItself: Bool
        /// A power cut during a swap leaves the device unbootable (no swap status kept): it never runs again.
        package var bricksOnInterruptedSwap: Bool
        /// MCUboot checks the hash but not the signature (built without its signature check): with a signing key,
        /// an image signed with another key boots.
        package var skipsSignatureCheck: Bool

        package init(losesUploadOffsetAtReset: Bool = false, confirmsItself: Bool = false, bricksOnInterruptedSwap: Bool = false,
                    skipsSignatureCheck: Bool = false) {
            self.losesUploadOffsetAtReset = losesUploadOffsetAtReset
            self.confirmsItself = confirmsItself
            self.bricksOnInterruptedSwap = bricksOnInterruptedSwap
            self.skipsSignatureCheck = skipsSignatureCheck
        }
    }

    /// How long flash operations take.
    package struct Timing: Sendable, Hashable {
        /// Erasing the secondary slot: on an upload's first chunk, and on an erase request.
        package var erase: Duration
        /// Writing 1,024 octets of a chunk.
        package var writePerKiB: Duration
        /// The swap at boot (either way).
        package var swap: Duration

        package init(erase: Duration = .milliseconds(500), writePerKiB: Duration = .milliseconds(2), swap: Duration = .seconds(2)) {
            self.erase = erase
            self.writePerKiB = writePerKiB
            self.swap = swap
        }
    }

    /// Flash work as it starts, for whoever charges it (a simulated accessory's current model): an erase of the
    /// secondary slot, or a write of a chunk's octets, each with how long it takes.
    package enum FlashWork: Sendable, Hashable {
        case erase(Duration)
        case write(octets: Int, Duration)
    }

    /// An upload under way or done: what identifies it and the octets written so far.
    struct Upload {
        var length: Int
        var sha: [UInt8]?
        var written: [UInt8]
    }

    package nonisolated let loop: EventLoop
    package let timing: Timing
    package let faults: Faults
    package let slotSize: Int
    /// The key MCUboot was built with: an image whose signature does not verify with it is not booted (nil: only the
    /// hash is checked, as an MCUboot without signature validation does).
    package let signingKey: MCUbootPublicKey?
    /// The running image and whether it is confirmed.
    package private(set) var primary: MCUbootImage
    package internal(set) var primaryConfirmed = true
    /// A complete image in the secondary slot, read without the hash check (as Zephyr's image manager reads it).
    package internal(set) var secondary: MCUbootImage?
    package internal(set) var pending = false
    package internal(set) var permanent = false
    /// The running image was booted for test: the next reset reverts it unless it is confirmed first.
    package internal(set) var testing = false
    /// Resets so far.
    package private(set) var boots = 0
    /// The swap under way, or the one a power cut interrupted: the next boot finishes it (or, with
    /// `bricksOnInterruptedSwap`, never boots again).
    private var swapping: Swap?
    /// A swap was under way when the power went.
    package var swapInterrupted: Bool { swapping != nil }
    /// It will never run an application again.
    package private(set) var bricked = false
    /// The upload under way or done (nil: none since the last erase, swap or lost offset).
    var upload: Upload?
    /// Counts power cuts, so that a swap, an erase or a chunk's write the power interrupted does not complete.
    private(set) var powerCuts = 0
    /// Told of each erase and write as it starts (`observeFlash`).
    private var flashObserver: (@Sendable (FlashWork) -> Void)?

    package nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    package init(running image: MCUbootImage, slotSize: Int = 0x60000, timing: Timing = Timing(), faults: Faults = Faults(),
                signingKey: MCUbootPublicKey? = nil, loop: EventLoop) {
        primary = image
        self.signingKey = signingKey
        self.slotSize = slotSize
        self.timing = timing
        self.faults = faults
        self.loop = loop
    }

    /// The offset of the upload under way (0 when none).
    package var uploadOffset: Int { upload.map { $0.written.count } ?? 0 }

    /// The slots as an image state response lists them.
    package var states: [MCUmgrImageState] {
        var states = [MCUmgrImageState(slot: 0, version: primary.version.mcumgrString, hash: primary.hash,
                                       bootable: !primary.header.flags.contains(.nonBootable), confirmed: primaryConfirmed, active: true)]
        if let secondary {
            states.append(MCUmgrImageState(slot: 1, version: secondary.version.mcumgrString, hash: secondary.hash,
                                           bootable: !secondary.header.flags.contains(.nonBootable), pending: pending,
                                           permanent: permanent))
        }
        return states
    }

    func sleep(_ duration: Duration) async { try? await Task.sleep(for: duration, clock: loop.clock) }

    /// Tells `observer` of each erase and write from now on, as it starts.
    package func observeFlash(_ observer: @escaping @Sendable (FlashWork) -> Void) { flashObserver = observer }

    /// Writes `octets` of a chunk: `timing.writePerKiB` per 1,024.
    func writeFlash(_ octets: Int) async {
        let duration = timing.writePerKiB * Double(octets) / 1024
        flashObserver?(.write(octets: octets, duration))
        await sleep(duration)
    }

    func eraseSecondary() async {
        flashObserver?(.erase(timing.erase))
        await sleep(timing.erase)
        secondary = nil
        pending = false
        permanent = false
    }

    /// The power goes: a swap under way stops where it is.
    package func powerCut() { powerCuts += 1 }

    /// A swap MCUboot does: a pending image in (`stays` when it was confirmed), or a test image back out.
    private enum Swap {
        case upgrade(stays: Bool)
        case revert
    }

    /// What MCUboot does at a reset, before the application runs: finishes a swap a power cut interrupted, reverts
    /// an unconfirmed test image, or swaps a pending image in after checking its hash and, with `signingKey`, its
    /// signature (MCUboot's boot_validate_slot: a bad one is erased and the running image stays); each swap takes `timing.swap`. False when no application runs: the power went during
    /// the swap (the next boot goes on with it), or the device is bricked.
    @discardableResult
    package func boot() async -> Bool {
        boots += 1
        guard !bricked else { return false }
        if faults.losesUploadOffsetAtReset { upload = nil }
        var next = swapping
        if next != nil && faults.bricksOnInterruptedSwap {
            bricked = true
            return false
        }
        if next == nil {
            if testing && secondary != nil {
                next = .revert
            } else if pending, let image = secondary {
                guard image.hashMatches, faults.skipsSignatureCheck || signingKey.map({ image.signatureVerdict(with: $0) == .verified }) ?? true else {
                    await eraseSecondary()
                    upload = nil
                    return true
                }
                next = .upgrade(stays: permanent)
            }
        }
        if let next {
            guard await swap(next) else { return false }
            switch next {
            case .revert:
                primaryConfirmed = true
                testing = false
            case .upgrade(let stays):
                testing = !stays
                primaryConfirmed = stays
                pending = false
                permanent = false
                upload = nil
            }
        }
        if faults.confirmsItself && testing {
            primaryConfirmed = true
            testing = false
        }
        return true
    }

    /// Exchanges the slots, taking `timing.swap`; false (the swap left in progress) when the power went meanwhile.
    private func swap(_ kind: Swap) async -> Bool {
        let cuts = powerCuts
        swapping = kind
        await sleep(timing.swap)
        guard cuts == powerCuts else { return false }
        swapping = nil
        if let next = secondary {
            secondary = primary
            primary = next
        }
        return true
    }
}
