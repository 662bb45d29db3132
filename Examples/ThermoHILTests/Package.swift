// swift-tools-version: 6.0
// A user's own accessory suites, written with BluetoothHIL's HILTesting traits:
//   hil run --package Examples/ThermoHILTests --rig rigs/simulated.json
import PackageDescription

let package = Package(
    name: "ThermoHILTests",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "BluetoothHIL", path: "../..")],
    targets: [
        .testTarget(name: "ThermoTests", dependencies: [.product(name: "HILTesting", package: "BluetoothHIL"),
                                                        .product(name: "HCIPackets", package: "BluetoothHIL")]),
    ]
)
