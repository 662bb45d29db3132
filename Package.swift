// swift-tools-version: 6.0
// BluetoothHIL: a hardware-in-the-loop harness for Bluetooth Low Energy accessories.
import PackageDescription

let package = Package(
    name: "BluetoothHIL",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "hil", targets: ["hil"]),
        // What a user's own suites import (Examples/ThermoHILTests): the traits, and the modules their API
        // hands out — the host stack's layers, results and rigs. Everything else is this package's own.
        .library(name: "HILTesting", targets: ["HILTesting"]),
        .library(name: "HCIPackets", targets: ["HCIPackets"]),
        .library(name: "EventLoops", targets: ["EventLoops"]),
        .library(name: "HCITransports", targets: ["HCITransports"]),
        .library(name: "HostCore", targets: ["HostCore"]),
        .library(name: "GATT", targets: ["GATT"]),
        .library(name: "SMP", targets: ["SMP"]),
        .library(name: "Roles", targets: ["Roles"]),
        .library(name: "HILResults", targets: ["HILResults"]),
        .library(name: "Rigs", targets: ["Rigs"]),
    ],
    targets: [
        // C libraries, from Debian -dev packages.
        .systemLibrary(
            name: "CLibUSB",
            pkgConfig: "libusb-1.0",
            providers: [.apt(["libusb-1.0-0-dev"]), .brew(["libusb"])]
        ),
        // Linux calls Glibc does not expose (epoll, eventfd, timerfd; accept4 and pipe2 with close-on-exec):
        // the C library only, through a few lines of C that define _GNU_SOURCE for themselves.
        .target(name: "CLinuxCalls"),
        // BlueZ's headers (bluetooth/hci.h): constants, structures and inline functions only, so nothing links
        // libbluetooth and no pkg-config file is needed.
        .systemLibrary(
            name: "CBlueZ",
            providers: [.apt(["libbluetooth-dev"])]
        ),
        // OpenSSL's libcrypto: AES, CMAC, P-256 ECDH and the random generator behind BluetoothCrypto.
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // libcbor: the streaming CBOR decoder and the head encoders behind CBOR.
        .systemLibrary(
            name: "CCBOR",
            pkgConfig: "libcbor",
            providers: [.apt(["libcbor-dev"]), .brew(["libcbor"])]
        ),

        // The strict JSON reader of every file hil reads (rigs, profiles, fault plans): line and column, strict
        // fields with did-you-mean, InputLimits, one error type (InputError), and the tables a format is declared in.
        .target(name: "StrictJSON"),
        // SplitMix64, the seeded generator that makes simulated airs, fuzz inputs and random tests replayable.
        .target(name: "SeededRandom"),
        // CBOR (RFC 8949) values over libcbor, decoded under limits: the bodies of MCUmgr SMP messages.
        .target(name: "CBOR", dependencies: ["CCBOR"]),
        // The Bluetooth LE security toolbox (Core v5.4 Vol 3 Part H §2.2) over libcrypto: AES-128, AES-CMAC,
        // P-256 key pairs and DHKeys, c1, s1, f4, f5, f6, g2, h6, h7, ah; values held as bytes, no C handles kept.
        .target(name: "BluetoothCrypto", dependencies: ["CCrypto"]),
        // Controller firmware as Linux and Bumble load it: Realtek epatches (v1, v2) and configs, the patch chosen
        // by ROM version and merged with its config, the download fragments; no I/O, no Bluetooth module.
        .target(name: "ControllerFirmware"),
        // Power meters a lab owns: Nordic's PPK2 (its serial commands, metadata and calibration, the sample stream
        // and its range-change filter) and the figures of a current trace (average, charge, energy); no I/O.
        .target(name: "PowerMeters", dependencies: ["Support"]),
        // What every module may need and none is about: child processes and deadlines, atomic file replacement
        // over file system calls a test can fail, one-shot values and change signals, off-pool work.
        .target(name: "Support", dependencies: [.target(name: "CLinuxCalls", condition: .when(platforms: [.linux]))]),
        // The host stack, a module per layer (as Bumble has), each depending only on those below it:
        // HCI packets: status and error codes, addresses, commands, events, ACL data, H4 framing, advertising
        // data and UUIDs, L2CAP channel IDs and LE signaling (Core v5.4 Vol 4 Part E, Vol 3 Parts A and C §11).
        .target(name: "HCIPackets"),
        // The event loop the host runs on and its clocks: the real one and the simulated bench's virtual time.
        .target(name: "EventLoops", dependencies: ["Support", .target(name: "CLinuxCalls", condition: .when(platforms: [.linux]))]),
        // HCI transports (H4 over a file descriptor, UART, TCP, Unix sockets) and btsnoop captures of them.
        .target(name: "HCITransports", dependencies: ["Support", "HCIPackets", "EventLoops", .target(name: "CLinuxCalls", condition: .when(platforms: [.linux]))]),
        // The HCI host: the host actor, commands and events, ACL flow control and reassembly, protocol violations.
        .target(name: "HostCore", dependencies: ["Support", "HCIPackets", "EventLoops", "HCITransports"]),
        // ATT (client and server bearer, Vol 3 Part F) and GATT (database, client, server; Vol 3 Part G).
        .target(name: "GATT", dependencies: ["Support", "HCIPackets", "EventLoops", "HostCore", "BluetoothCrypto"]),
        // The Security Manager Protocol (pairing, key distribution; Vol 3 Part H) and the bond store.
        .target(name: "SMP", dependencies: ["Support", "HCIPackets", "EventLoops", "HostCore", "GATT", "BluetoothCrypto"]),
        // The LE roles a device plays on the host: central and peripheral, scanning, advertising, connections.
        .target(name: "Roles", dependencies: ["Support", "HCIPackets", "EventLoops", "HCITransports", "HostCore", "GATT", "SMP"]),
        // The Swift wrapper over libusb that DeviceControl and HCIUSB share: context, error names, device
        // list, descriptors.
        .target(name: "LibUSB", dependencies: ["CLibUSB"]),
        // Power switches and USB topology; knows nothing about Bluetooth.
        .target(name: "DeviceControl", dependencies: ["Support", "CLibUSB", "LibUSB", "StrictJSON", "PowerMeters"]),
        // Throughput runs in Bumble's bench format: its packets and speed service, the central's and the
        // peripheral's halves, and what a run measured.
        .target(name: "Throughput", dependencies: ["HILResults", "HCIPackets", "EventLoops", "GATT", "Roles"]),
        // MCUboot images as imgtool makes them: header, version, TLV areas, the SHA-256 checked (no Bluetooth).
        .target(name: "MCUbootImage", dependencies: ["BluetoothCrypto"]),
        // MCUmgr SMP (Zephyr's device management protocol, not the Security Manager Protocol): its messages, the
        // OS and image management requests and responses, their failures; the client and server over GATT, and
        // the simulated MCUboot slots the server manages.
        .target(name: "MCUmgr", dependencies: ["CBOR", "MCUbootImage", "BluetoothCrypto", "HCIPackets", "EventLoops", "GATT", "Roles"]),
        // Simulated controllers, air and power: the embedded default bench.
        .target(name: "Simulation", dependencies: ["BluetoothCrypto", "StrictJSON", "SeededRandom", "PowerMeters", "HCIPackets", "EventLoops", "HCITransports", "HostCore", "GATT", "SMP", "Roles", "Throughput", "MCUmgr", "MCUbootImage"]),
        // Lint of an app's Bluetooth declarations (Info.plist, AndroidManifest.xml).
        .target(name: "Preflight", dependencies: ["Support"]),
        // Real adapters: USB dongles through libusb, Linux adapters through the HCI user channel.
        .target(name: "HCIUSB", dependencies: ["Support", "CLibUSB", "LibUSB", "HCIPackets", "EventLoops", "HCITransports", "HostCore"]),
        .target(name: "HCILinux", dependencies: ["Support", "CBlueZ", "HCITransports", "Roles", "EventLoops"]),
        // Results of a run: test records, the Swift Testing event stream, JUnit, JSON, HTML, SVG.
        // Imports no Bluetooth or device module, so it could serve any harness.
        .target(name: "HILResults", dependencies: ["Support"]),
        // The rig model: a bench's adapter, accessories, switches and budgets, read through StrictJSON.
        .target(name: "Rigs", dependencies: ["DeviceControl", "Simulation", "StrictJSON", "MCUbootImage", "HCIPackets", "HCITransports", "GATT", "SMP", "Roles"]),
        // Operations on a bench: leasing it (the rig lock), opening its adapter, the recovery ladder, doctor.
        .target(name: "BenchOperations", dependencies: ["Support", "HCIUSB", "HCILinux", "LibUSB", "DeviceControl", "Rigs", "HILResults", "StrictJSON", "ControllerFirmware", "BluetoothCrypto", "HCIPackets", "EventLoops", "HCITransports", "HostCore", "Roles"]),
        // `hil sim serve`: the simulated air served as H4 controllers, with its control channel.
        // H4 and control lines over sockets, shared by the servers: addresses (loopback unless told), listening
        // sockets, byte bridges, socket options, the servers' one error type.
        .target(name: "SocketServing", dependencies: ["EventLoops", "HCITransports"]),
        // `hil serve`: one opened controller (any moniker) served as H4 to one host at a time, with an idle timeout.
        .target(name: "ControllerServer", dependencies: ["Support", "SocketServing", "HCIPackets", "EventLoops", "HCITransports"]),
        .target(name: "AirServer", dependencies: ["Support", "SocketServing", "Simulation", "DeviceControl", "Rigs", "HCIPackets", "EventLoops", "HCITransports", "Roles"]),
        // The runner: `swift test` supervision, the event stream followed live, progress, results written.
        .target(name: "HILRunner", dependencies: ["Support", "HILResults", "Rigs", "BenchOperations", "DeviceControl"]),
        // Swift Testing traits that lease a bench.
        .target(name: "HILTesting", dependencies: ["Support", "Rigs", "Simulation", "PowerMeters", "BenchOperations", "HILResults", "DeviceControl", "EventLoops", "HCITransports", "HostCore", "GATT", "SMP", "Roles"]),
        // The bench as a scriptable accessory for a phone app (`hil accessory`): profiles, fault plans, the report.
        .target(name: "AccessoryPlay", dependencies: ["Support", "StrictJSON", "HILResults", "HCIPackets", "EventLoops", "HostCore", "GATT", "SMP", "Roles", "MCUmgr", "MCUbootImage"]),
        // The command-line tool: arguments, presenters of its answers, exit codes.
        .executableTarget(name: "hil", dependencies: ["ControllerServer", "ControllerFirmware", "PowerMeters", "BluetoothCrypto", "SocketServing", "Support", "HILRunner", "HILResults", "Rigs", "BenchOperations", "AirServer", "DeviceControl", "Preflight", "StrictJSON", "AccessoryPlay", "Throughput", "MCUmgr", "MCUbootImage", "HCIPackets", "HCITransports", "HostCore", "GATT", "SMP", "Roles", "EventLoops", .target(name: "CLinuxCalls", condition: .when(platforms: [.linux]))]),
        // Benchmarks run by scripts/bench/*: each measures ours beside a baseline in the same run.
        .executableTarget(name: "hil-benchmark", dependencies: ["BenchOperations", "Simulation", "HCIPackets", "HostCore", "GATT", "Roles"]),
        // Fuzz target for the H4 framer and packet decoders: `scripts/fuzz/fuzz` builds it with
        // `--sanitize fuzzer` (libFuzzer); a plain build makes a replay tool (see Sources/hci-fuzz).
        .executableTarget(name: "hci-fuzz", dependencies: ["SeededRandom", "HCIPackets", "EventLoops", "HCITransports", "HostCore", "GATT", "SMP", "Roles"]),
        // Fuzz targets for the preflight readers (XML and binary plists, AXML, zip and inflate, manifest XML):
        // `scripts/fuzz/fuzz-preflight` builds it with `--sanitize fuzzer`; a plain build makes a replay tool.
        .executableTarget(name: "preflight-fuzz", dependencies: ["Preflight"]),

        // Peers and helpers shared by the test targets (btvirt with its cross-process lock, child processes).
        .target(name: "TestSupport", dependencies: ["Support", "DeviceControl", "HILResults", "HCIPackets", "EventLoops", "HCITransports", "HostCore", "SMP"], path: "Tests/TestSupport"),
        .testTarget(name: "BluetoothCryptoTests", dependencies: ["BluetoothCrypto"]),
        .testTarget(name: "ControllerFirmwareTests", dependencies: ["ControllerFirmware"]),
        .testTarget(name: "PowerMetersTests", dependencies: ["PowerMeters", "TestSupport"]),
        .testTarget(name: "HCIPacketsTests", dependencies: ["HCIPackets", "SeededRandom", "TestSupport"]),
        .testTarget(name: "EventLoopsTests", dependencies: ["EventLoops", "TestSupport", "SeededRandom"]),
        .testTarget(name: "HCITransportsTests", dependencies: ["HCITransports", "TestSupport", "HCIPackets", "EventLoops", "HostCore", "Roles"]),
        .testTarget(name: "HostCoreTests", dependencies: ["HostCore", "TestSupport", "HCIPackets", "EventLoops", "Roles"]),
        .testTarget(name: "GATTTests", dependencies: ["GATT", "TestSupport", "SeededRandom", "HCIPackets", "EventLoops", "HostCore"]),
        .testTarget(name: "SMPTests", dependencies: ["Support", "SMP", "TestSupport", "SeededRandom", "HCIPackets", "EventLoops"]),
        .testTarget(name: "RolesTests", dependencies: ["Support", "Roles", "TestSupport", "DeviceControl", "Simulation", "HCIPackets", "EventLoops", "HCITransports", "HostCore", "GATT", "SMP"]),
        .testTarget(name: "SeededRandomTests", dependencies: ["SeededRandom"]),
        .testTarget(name: "CBORTests", dependencies: ["CBOR", "TestSupport"]),
        .testTarget(name: "MCUbootImageTests", dependencies: ["MCUbootImage", "Support", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "MCUmgrTests", dependencies: ["MCUmgr", "CBOR", "MCUbootImage", "BluetoothCrypto", "Simulation", "Throughput", "TestSupport", "HCIPackets", "EventLoops", "HostCore", "GATT", "Roles"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "SupportTests", dependencies: ["Support", "TestSupport"]),
        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON"], resources: [.copy("Fixtures")]),
        .testTarget(name: "DeviceControlTests", dependencies: ["Support", "DeviceControl", "StrictJSON", "TestSupport", "EventLoops", "Roles", "PowerMeters", "SeededRandom"]),
        .testTarget(name: "PreflightTests", dependencies: ["Preflight", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "HILResultsTests", dependencies: ["HILResults", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "RigsTests", dependencies: ["Rigs", "StrictJSON", "DeviceControl", "Simulation", "PowerMeters", "TestSupport", "HCIPackets", "EventLoops", "HCITransports", "HostCore", "Roles", "Throughput", "MCUmgr", "MCUbootImage"]),
        .testTarget(name: "BenchOperationsTests", dependencies: ["Support", "BenchOperations", "Rigs", "HILResults", "DeviceControl", "ControllerFirmware", "TestSupport", "HCIPackets", "EventLoops", "HCITransports", "HostCore", "Roles"]),
        .testTarget(name: "SocketServingTests", dependencies: ["SocketServing", "AirServer"]),
        .testTarget(name: "ControllerServerTests", dependencies: ["Support", "SocketServing", "ControllerServer", "TestSupport", "HCIPackets", "EventLoops", "HCITransports", "AirServer"]),
        .testTarget(name: "AirServerTests", dependencies: ["Support", "SocketServing", "AirServer", "Rigs", "DeviceControl", "Simulation", "TestSupport", "HCIPackets", "EventLoops", "HCITransports", "HostCore", "Roles"]),
        .testTarget(name: "HILRunnerTests", dependencies: ["Support", "HILRunner", "HILResults", "BenchOperations", "DeviceControl", "Rigs", "TestSupport", "EventLoops"]),
        .testTarget(name: "LibUSBTests", dependencies: ["LibUSB", "CLibUSB"]),
        .testTarget(name: "HCIUSBTests", dependencies: ["HCIUSB", "CLibUSB", "LibUSB", "HCIPackets", "HostCore"]),
        .testTarget(name: "HCILinuxTests", dependencies: ["HCILinux", "CBlueZ", "Roles"]),
        .testTarget(name: "hilCommandTests", dependencies: ["SocketServing", "Support", "hil", "BenchOperations", "DeviceControl", "AirServer", "TestSupport", "HCIPackets", "HCITransports", "HostCore", "SMP"]),
        // The standard transition suites, run against the rig HIL_RIG names (default rigs/simulated.json).
        .testTarget(name: "HILTests", dependencies: ["HILTesting", "HILResults", "HCIPackets", "HostCore", "GATT", "Roles", "Rigs", "Throughput", "MCUmgr", "MCUbootImage"]),
        // HILTesting's own parts, apart from a bench.
        .testTarget(name: "ThroughputTests", dependencies: ["Throughput", "EventLoops"], resources: [.copy("Fixtures")]),
        .testTarget(name: "HILTestingTests", dependencies: ["HILTesting", "HCITransports", "SMP", "DeviceControl", "EventLoops", "PowerMeters", "TestSupport"]),
        .testTarget(name: "AccessoryPlayTests", dependencies: ["AccessoryPlay", "StrictJSON", "Simulation", "TestSupport", "HCIPackets", "EventLoops", "HostCore", "SMP", "Roles"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "TestSupport", "StrictJSON", "PowerMeters", "HCIPackets", "EventLoops", "HCITransports", "HostCore", "GATT", "SMP", "Roles"]),
    ]
)
