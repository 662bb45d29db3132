import BluetoothCrypto
import CBOR
import MCUbootImage

/// The image management requests the slots answer, as Zephyr's image manager does: upload, state write, erase.
extension MCUbootSlots {
    /// Handles one image upload request: the answer's body, or the image management error. A power cut during
    /// the request's erase leaves the secondary slot erased (partly: no image) and no upload under way; one during
    /// its write leaves the upload's offset at the chunk's start (the sector being written is lost). The answer
    /// then goes nowhere: the device is off.
    package func upload(_ body: CBORValue) async -> Result<CBORValue, MCUmgrGroupError> {
        let cuts = powerCuts
        guard let offset = body["off"]?.int, offset >= 0 else { return .failure(.image(MCUmgrGroupError.Image.invalidOffset)) }
        guard let data = body["data"]?.bytes else { return .failure(.image(MCUmgrGroupError.Image.invalidLength)) }
        if offset == 0 {
            guard let length = body["len"]?.int, length > 0 else { return .failure(.image(MCUmgrGroupError.Image.invalidLength)) }
            guard length <= slotSize else { return .failure(.image(MCUmgrGroupError.Image.invalidImageTooLarge)) }
            let sha = body["sha"]?.bytes
            if let upload, upload.length == length, sha != nil, upload.sha == sha, !upload.written.isEmpty, upload.written.count < length {
                // The same upload, under way: go on from where it stopped.
                return .success(MCUmgrUploadProgress(offset: upload.written.count).cbor)
            }
            guard !pending else { return .failure(.image(MCUmgrGroupError.Image.imageAlreadyPending)) }
            upload = nil
            await eraseSecondary()
            guard cuts == powerCuts else { return .success(MCUmgrUploadProgress(offset: 0).cbor) }
            upload = Upload(length: length, sha: sha, written: [])
        }
        guard var current = upload else { return .success(MCUmgrUploadProgress(offset: 0).cbor) }
        guard offset == current.written.count else { return .success(MCUmgrUploadProgress(offset: current.written.count).cbor) }
        guard offset + data.count <= current.length else { return .failure(.image(MCUmgrGroupError.Image.dataOverrun)) }
        await writeFlash(data.count)
        guard cuts == powerCuts else { return .success(MCUmgrUploadProgress(offset: current.written.count).cbor) }
        current.written += data
        upload = current
        guard current.written.count == current.length else { return .success(MCUmgrUploadProgress(offset: current.written.count).cbor) }
        secondary = try? MCUbootImage(current.written, checkingHash: false)
        let match = current.sha.map { (try? SHA256.digest(current.written)) == $0 }
        return .success(MCUmgrUploadProgress(offset: current.length, match: match).cbor)
    }

    /// Handles an image state write: test (pending) or confirm.
    func setState(_ body: CBORValue) -> Result<CBORValue, MCUmgrGroupError> {
        let hash = body["hash"]?.bytes
        let confirm = body["confirm"]?.bool ?? false
        if confirm && (hash == nil || hash == primary.hash) {
            primaryConfirmed = true
            testing = false
        } else if let hash, let secondary, hash == secondary.hash {
            pending = true
            permanent = confirm
        } else if hash == primary.hash {
            return .failure(.image(MCUmgrGroupError.Image.settingTestToActiveDenied))
        } else {
            return .failure(.image(MCUmgrGroupError.Image.hashNotFound))
        }
        return .success(.map(["images": .array(states.map(\.cbor))]))
    }

    /// Handles an image erase of the secondary slot.
    func erase(_ body: CBORValue) async -> Result<CBORValue, MCUmgrGroupError> {
        guard (body["slot"]?.int ?? 1) == 1 else { return .failure(.image(MCUmgrGroupError.Image.invalidSlot)) }
        guard !pending else { return .failure(.image(MCUmgrGroupError.Image.imageAlreadyPending)) }
        await eraseSecondary()
        upload = nil
        return .success(.map([]))
    }
}
