import BenchOperations
import Foundation
import MCUbootImage
import GATT
import MCUmgr
import Roles

/// `hil dfu MONIKER --name NAME (--image FILE [--test|--confirm] | --list | --reset) [--json]`: one firmware update of
/// an accessory over MCUmgr SMP, its image slots, or its reset. Exit 0 done, 1 refused or failed by the accessory,
/// 2 bench trouble, 3 a wrong command line or image file.
enum DFUCommand {
    static let usage = """
        usage: hil dfu MONIKER --name NAME (--image FILE [--test | --confirm] | --list | --reset) [--json]
                               [--mtu N] [--window N] [--timeout S] [--scan-timeout S] [--rig RIG.json] [--capture FILE]
        Updates an accessory's firmware over MCUmgr SMP (Zephyr's device management protocol, on the SMP GATT
        service 8D53DC1D-1DB7-4CD3-868B-8A527460AA84), as MCUboot takes it. Connects to the accessory advertising
        NAME (or --address, --service, --manufacturer), exchanges the MTU (--mtu, default 247) and asks for a data
        length of 251 octets.
          --image FILE   reads the MCUboot image (imgtool's) and checks its hash first, then uploads it to the
                         secondary slot in chunks that fill the MTU, each from the offset the accessory answered
                         (an upload it already holds part of resumes there), --window requests in flight at once
                         (default 4; 1 awaits each answer, as smpclient does); --test marks it to be swapped in at
                         the next reset (and reverted at the one after unless confirmed), --confirm to stay
          --list         the image slots as the accessory reports them (slot, version, hash, active, pending,
                         confirmed, bootable, permanent)
          --reset        asks the accessory to reset
        Every request waits --timeout (default 10 s; the upload's first chunk, which erases a slot, 40 s).
        --json prints one object. Exit 0 done, 1 refused or failed by the accessory (its error named), 2 bench
        trouble, 3 a wrong command line or image file.
        """

    enum Action {
        case upload(MCUbootImage, path: String, then: Then)
        case list
        case reset

        enum Then { case nothing, test, confirm }
    }

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        let action: Action
        let json: Bool
        let mtu: Int
        let window: Int
        let timeout: Duration
        let scanTimeout: Duration
        let filter: ScanFilter
        var controller: SessionArguments
        do {
            json = arguments.flag("json")
            let list = arguments.flag("list"), reset = arguments.flag("reset"), test = arguments.flag("test"), confirm = arguments.flag("confirm")
            let imagePath = try arguments.option("image")
            guard [imagePath != nil, list, reset].filter({ $0 }).count == 1 else { throw UsageError("say one of --image FILE, --list or --reset") }
            guard !(test && confirm), imagePath != nil || !(test || confirm) else { throw UsageError("--test or --confirm goes with --image, one of them") }
            mtu = Int(try arguments.number("mtu", in: 23...517) ?? 247)
            window = Int(try arguments.number("window", in: 1...64) ?? 4)
            timeout = .milliseconds(Int64((try arguments.number("timeout", in: 0.1...3600) ?? 10) * 1000))
            scanTimeout = try FilterArguments.scanTimeout(&arguments)
            controller = try SessionArguments.parse(&arguments)
            filter = try FilterArguments.parse(&arguments)
            try controller.finish(&arguments, accessory: filter)
            if let imagePath {
                action = .upload(try readImage(imagePath), path: imagePath, then: test ? .test : confirm ? .confirm : .nothing)
            } else {
                action = list ? .list : .reset
            }
        } catch {
            return Diagnostics.usageError("dfu", error)
        }
        return await controller.withDevice("dfu") { device in
            try await perform(action, device: device, filter: filter, mtu: mtu, window: window, timeout: timeout, scanTimeout: scanTimeout, json: json)
        }
    }

    /// The image at `path`, read and checked: a file that is not an MCUboot image with a matching hash is a usage error.
    static func readImage(_ path: String) throws -> MCUbootImage {
        guard let data = FileManager.default.contents(atPath: path) else { throw UsageError("--image '\(path)': cannot read the file") }
        do {
            return try MCUbootImage(Array(data))
        } catch {
            throw UsageError("--image '\(path)': \(error)")
        }
    }

    static func perform(_ action: Action, device: LEDevice, filter: ScanFilter, mtu: Int, window: Int, timeout: Duration, scanTimeout: Duration,
                        json: Bool) async throws -> ExitStatus {
        let link: LEConnection
        do {
            let found = try await device.find(filter, timeout: scanTimeout)
            link = try await device.connect(to: found.address, type: found.addressType)
        } catch {
            throw CommandFailure(message: error.description, status: .productFailure)
        }
        defer { Task { _ = try? await link.disconnect() } }
        do {
            _ = try await link.exchangeMTU(offering: mtu)
            // Long PDUs carry a chunk in one or two; a controller without Data Length Extension keeps 27 octets.
            _ = try? await link.setDataLength(octets: 251)
            let client = try await MCUmgrClient.connect(on: link, timeout: timeout)
            switch action {
            case .list:
                DFUPresenter.present(try await client.imageStates(), json: json)
            case .reset:
                try await client.reset()
                DFUPresenter.presentReset(json: json)
            case .upload(let image, let path, let then):
                let report = try await client.upload(image.bytes, window: window, chunkTimeout: timeout)
                var states: [MCUmgrImageState]?
                switch then {
                case .nothing: states = nil
                case .test: states = try await client.test(hash: image.hash)
                case .confirm: states = try await client.confirm(hash: image.hash)
                }
                DFUPresenter.present(report, image: image, path: path, states: states, json: json)
            }
            _ = try? await link.disconnect()
            return .success
        } catch let error as MCUmgrError {
            throw CommandFailure(message: "\(link.peerAddress): \(error)", status: .productFailure)
        } catch let error as ATTError {
            throw CommandFailure(message: "\(link.peerAddress): \(error)", status: .productFailure)
        }
    }
}
