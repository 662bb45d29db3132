// swift-tools-version: 6.0
// BluetoothHIL: a hardware-in-the-loop harness for Bluetooth Low Energy accessories.
import PackageDescription

let package = Package(
    name: "BluetoothHIL",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "hil", targets: ["hil"]),
        .library(name: "HCI", targets: ["HCI"]),
        .library(name: "RigFormat", targets: ["RigFormat"]),
        .library(name: "DeviceControl", targets: ["DeviceControl"]),
        .library(name: "Simulation", targets: ["Simulation"]),
        .library(name: "Preflight", targets: ["Preflight"]),
        .library(name: "HILRunner", targets: ["HILRunner"]),
        .library(name: "HILTesting", targets: ["HILTesting"]),
    ],
    targets: [
        // C libraries, from Debian -dev packages.
        .systemLibrary(
            name: "CLibUSB",
            pkgConfig: "libusb-1.0",
            providers: [.apt(["libusb-1.0-0-dev"]), .brew(["libusb"])]
        ),
        .systemLibrary(
            name: "CBlueZ",
            pkgConfig: "bluez",
            providers: [.apt(["libbluetooth-dev"])]
        ),

        // The rig file reader: JSON with line and column, strict fields, one error type (RigError).
        .target(name: "RigFormat"),
        // Host stack: packets, transports, host actor, btsnoop.
        .target(name: "HCI"),
        // The Swift wrapper over libusb that DeviceControl and HCIUSB share: context, error names, device
        // list, descriptors.
        .target(name: "LibUSB", dependencies: ["CLibUSB"]),
        // Power switches and USB topology; knows nothing about Bluetooth.
        .target(name: "DeviceControl", dependencies: ["CLibUSB", "LibUSB", "RigFormat"]),
        // Simulated controllers, air and power: the embedded default bench.
        .target(name: "Simulation", dependencies: ["HCI", "RigFormat"]),
        // Lint of an app's Bluetooth declarations (Info.plist, AndroidManifest.xml).
        .target(name: "Preflight"),
        // Rigs, benches, transitions, results.
        // Real adapters: USB dongles through libusb, Linux adapters through the HCI user channel.
        .target(name: "HCIUSB", dependencies: ["HCI", "CLibUSB", "LibUSB"]),
        .target(name: "HCILinux", dependencies: ["HCI"]),
        .target(name: "HILRunner", dependencies: ["HCI", "DeviceControl", "Simulation", "HCIUSB", "HCILinux", "RigFormat", "LibUSB"]),
        // Swift Testing traits that lease a bench.
        .target(name: "HILTesting", dependencies: ["HILRunner", "DeviceControl", "HCI"]),
        // The command-line tool.
        .executableTarget(name: "hil", dependencies: ["HILRunner", "DeviceControl", "HCI", "Preflight", "RigFormat"]),
        // Benchmarks run by scripts/bench-*: each measures ours beside a baseline in the same run.
        .executableTarget(name: "hil-bench", dependencies: ["HILRunner", "HCI", "Simulation"]),
        // Fuzz target for the H4 framer and packet decoders: `scripts/fuzz` builds it with
        // `--sanitize fuzzer` (libFuzzer); a plain build makes a replay tool (see Sources/hci-fuzz).
        .executableTarget(name: "hci-fuzz", dependencies: ["HCI"]),

        // Peers and helpers shared by the test targets (btvirt with its cross-process lock, child processes).
        .target(name: "TestSupport", dependencies: ["HCI"], path: "Tests/TestSupport"),
        .testTarget(name: "HCITests", dependencies: ["HCI", "TestSupport"]),
        .testTarget(name: "RigFormatTests", dependencies: ["RigFormat"], resources: [.copy("Fixtures")]),
        .testTarget(name: "DeviceControlTests", dependencies: ["DeviceControl", "RigFormat"]),
        .testTarget(name: "PreflightTests", dependencies: ["Preflight"], resources: [.copy("Fixtures")]),
        .testTarget(name: "HILRunnerTests", dependencies: ["HILRunner", "RigFormat", "DeviceControl", "HCI", "Simulation"], resources: [.copy("Fixtures")]),
        .testTarget(name: "LibUSBTests", dependencies: ["LibUSB", "CLibUSB"]),
        .testTarget(name: "HCIUSBTests", dependencies: ["HCIUSB", "CLibUSB", "HCI", "LibUSB"]),
        .testTarget(name: "HCILinuxTests", dependencies: ["HCILinux", "HCI"]),
        .testTarget(name: "hilTests", dependencies: ["hil"]),
        // The standard transition suites, run against the rig HIL_RIG names (default rigs/simulated.json).
        .testTarget(name: "HILTests", dependencies: ["HILTesting", "HILRunner", "HCI"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "TestSupport", "RigFormat", "HCI"]),
    ]
)
