// swift-tools-version: 6.0
// BluetoothHIL: a hardware-in-the-loop harness for Bluetooth Low Energy accessories.
import PackageDescription

let package = Package(
    name: "BluetoothHIL",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "hil", targets: ["hil"]),
        .library(name: "HCI", targets: ["HCI"]),
        .library(name: "BluetoothCrypto", targets: ["BluetoothCrypto"]),
        .library(name: "RigFormat", targets: ["RigFormat"]),
        .library(name: "DeviceControl", targets: ["DeviceControl"]),
        .library(name: "Simulation", targets: ["Simulation"]),
        .library(name: "Preflight", targets: ["Preflight"]),
        .library(name: "HILResults", targets: ["HILResults"]),
        .library(name: "Rigs", targets: ["Rigs"]),
        .library(name: "BenchOperations", targets: ["BenchOperations"]),
        .library(name: "AirServer", targets: ["AirServer"]),
        .library(name: "HILRunner", targets: ["HILRunner"]),
        .library(name: "HILTesting", targets: ["HILTesting"]),
        .library(name: "AccessoryPlay", targets: ["AccessoryPlay"]),
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

        // The rig file reader: JSON with line and column, strict fields, one error type (RigError).
        .target(name: "RigFormat"),
        // SplitMix64, the seeded generator that makes simulated airs, fuzz inputs and random tests replayable.
        .target(name: "SeededRandom"),
        // The Bluetooth LE security toolbox (Core v5.4 Vol 3 Part H §2.2) over libcrypto: AES-128, AES-CMAC,
        // P-256 key pairs and DHKeys, c1, s1, f4, f5, f6, g2, h6, h7, ah; values held as bytes, no C handles kept.
        .target(name: "BluetoothCrypto", dependencies: ["CCrypto"]),
        // Host stack: packets, transports, host actor, btsnoop.
        .target(name: "HCI", dependencies: ["BluetoothCrypto",
                                            .target(name: "CLinuxCalls", condition: .when(platforms: [.linux]))]),
        // The Swift wrapper over libusb that DeviceControl and HCIUSB share: context, error names, device
        // list, descriptors.
        .target(name: "LibUSB", dependencies: ["CLibUSB"]),
        // Power switches and USB topology; knows nothing about Bluetooth.
        .target(name: "DeviceControl", dependencies: ["CLibUSB", "LibUSB", "RigFormat",
                                                  .target(name: "CLinuxCalls", condition: .when(platforms: [.linux]))]),
        // Simulated controllers, air and power: the embedded default bench.
        .target(name: "Simulation", dependencies: ["HCI", "BluetoothCrypto", "RigFormat", "SeededRandom"]),
        // Lint of an app's Bluetooth declarations (Info.plist, AndroidManifest.xml).
        .target(name: "Preflight"),
        // Real adapters: USB dongles through libusb, Linux adapters through the HCI user channel.
        .target(name: "HCIUSB", dependencies: ["HCI", "CLibUSB", "LibUSB"]),
        .target(name: "HCILinux", dependencies: ["HCI", "CBlueZ"]),
        // Results of a run: test records, the Swift Testing event stream, JUnit, JSON, HTML, SVG.
        // Imports no Bluetooth or device module, so it could serve any harness.
        .target(name: "HILResults"),
        // The rig model: a bench's adapter, accessories, switches and budgets, read through RigFormat.
        .target(name: "Rigs", dependencies: ["HCI", "DeviceControl", "Simulation", "RigFormat"]),
        // Operations on a bench: leasing it (the rig lock), opening its adapter, the recovery ladder, doctor.
        .target(name: "BenchOperations", dependencies: ["HCI", "HCIUSB", "HCILinux", "LibUSB", "DeviceControl", "Rigs", "HILResults", "RigFormat"]),
        // The simulated air served as H4 controllers (`hil sim serve`).
        .target(name: "AirServer", dependencies: ["HCI", "Simulation", "DeviceControl", "Rigs"]),
        // The runner: `swift test` supervision, the event stream followed live, progress, results written.
        .target(name: "HILRunner", dependencies: ["HILResults", "Rigs", "BenchOperations", "DeviceControl"]),
        // Swift Testing traits that lease a bench.
        .target(name: "HILTesting", dependencies: ["Rigs", "BenchOperations", "HILResults", "DeviceControl", "HCI"]),
        // The bench as a scriptable accessory for a phone app (`hil accessory`): profiles, fault plans, the report.
        .target(name: "AccessoryPlay", dependencies: ["HCI", "RigFormat", "HILResults"]),
        // The command-line tool: arguments, presenters of its answers, exit codes.
        .executableTarget(name: "hil", dependencies: ["HILRunner", "HILResults", "Rigs", "BenchOperations", "AirServer", "DeviceControl", "HCI", "Preflight", "RigFormat", "AccessoryPlay",
                                                     .target(name: "CLinuxCalls", condition: .when(platforms: [.linux]))]),
        // Benchmarks run by scripts/bench-*: each measures ours beside a baseline in the same run.
        .executableTarget(name: "hil-benchmark", dependencies: ["BenchOperations", "HCI", "Simulation"]),
        // Fuzz target for the H4 framer and packet decoders: `scripts/fuzz` builds it with
        // `--sanitize fuzzer` (libFuzzer); a plain build makes a replay tool (see Sources/hci-fuzz).
        .executableTarget(name: "hci-fuzz", dependencies: ["HCI", "SeededRandom"]),
        // Fuzz targets for the preflight readers (XML and binary plists, AXML, zip and inflate, manifest XML):
        // `scripts/fuzz-preflight` builds it with `--sanitize fuzzer`; a plain build makes a replay tool.
        .executableTarget(name: "preflight-fuzz", dependencies: ["Preflight"]),

        // Peers and helpers shared by the test targets (btvirt with its cross-process lock, child processes).
        .target(name: "TestSupport", dependencies: ["HCI", "DeviceControl", "HILResults"], path: "Tests/TestSupport"),
        .testTarget(name: "BluetoothCryptoTests", dependencies: ["BluetoothCrypto"]),
        .testTarget(name: "HCITests", dependencies: ["HCI", "TestSupport", "SeededRandom", "DeviceControl"]),
        .testTarget(name: "RigFormatTests", dependencies: ["RigFormat"], resources: [.copy("Fixtures")]),
        .testTarget(name: "DeviceControlTests", dependencies: ["DeviceControl", "RigFormat", "TestSupport", "HCI"]),
        .testTarget(name: "PreflightTests", dependencies: ["Preflight", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "HILResultsTests", dependencies: ["HILResults", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "RigsTests", dependencies: ["Rigs", "RigFormat", "DeviceControl", "HCI", "Simulation", "TestSupport"]),
        .testTarget(name: "BenchOperationsTests", dependencies: ["BenchOperations", "Rigs", "HILResults", "DeviceControl", "HCI", "TestSupport"]),
        .testTarget(name: "AirServerTests", dependencies: ["AirServer", "Rigs", "DeviceControl", "HCI", "Simulation", "TestSupport"]),
        .testTarget(name: "HILRunnerTests", dependencies: ["HILRunner", "HILResults", "BenchOperations", "DeviceControl", "Rigs", "TestSupport", "HCI"]),
        .testTarget(name: "LibUSBTests", dependencies: ["LibUSB", "CLibUSB"]),
        .testTarget(name: "HCIUSBTests", dependencies: ["HCIUSB", "CLibUSB", "HCI", "LibUSB"]),
        .testTarget(name: "HCILinuxTests", dependencies: ["HCILinux", "HCI", "CBlueZ"]),
        .testTarget(name: "hilTests", dependencies: ["hil", "HCI", "DeviceControl", "AirServer", "TestSupport"]),
        // The standard transition suites, run against the rig HIL_RIG names (default rigs/simulated.json).
        .testTarget(name: "HILTests", dependencies: ["HILTesting", "HILResults", "HCI"]),
        // HILTesting's own parts, apart from a bench.
        .testTarget(name: "HILTestingTests", dependencies: ["HILTesting", "HCI"]),
        .testTarget(name: "AccessoryPlayTests", dependencies: ["AccessoryPlay", "RigFormat", "HCI", "Simulation", "TestSupport"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "TestSupport", "RigFormat", "HCI"]),
    ]
)
