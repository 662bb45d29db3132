// swift-tools-version: 6.0
// Test kind: endToEnd — the package `hil run --package` runs in the interrupt tests (scripts/checks/check-interrupts, a phase
// of scripts/test); its tests stop where the test driving the run says (Tests/HeldSuites/Hold.swift).
import PackageDescription

let package = Package(name: "HeldRun", targets: [.testTarget(name: "HeldSuites")])
