import Support
import DeviceControl
import Foundation
import Testing
import TestSupport

/// `hil lab export`'s files served by a real labgrid-exporter to a real labgrid-coordinator on 127.0.0.1:
/// labgrid-client lists every resource of each file under EXPORTER/GROUP/NAME with the class labgrid's
/// exporter publishes it as (absent USB devices are listed as unavailable), and a place matches them with
/// the commands docs/lab.md gives. Only the processes this test starts are stopped, by their PIDs.
@Suite(.serialized, .tags(.process, .peer)) struct LabgridExporterTests {
    /// The class labgrid-exporter publishes each local resource as (labgrid/remote/exporter.py).
    static let publishedClass = ["USBFlashableDevice": "NetworkUSBFlashableDevice", "USBPowerPort": "NetworkUSBPowerPort",
                                 "YKUSHPowerPort": "NetworkYKUSHPowerPort", "HIDRelay": "NetworkHIDRelay", "RawSerialPort": "NetworkSerialPort"]

    struct Listed: Hashable {
        var exporter: String
        var group: String
        var cls: String
        var name: String
    }

    /// `labgrid-client -vv resources`' resource lines: `Resource 'NAME' (EXPORTER/GROUP/CLASS[/NAME]):`.
    static func listed(_ output: String) -> Set<Listed> {
        var result = Set<Listed>()
        for line in output.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("Resource '"), let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") else { continue }
            let path = text[text.index(after: open)..<close].split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard path.count == 4, path[2].hasSuffix("["), path[3].hasSuffix("]") else { continue }
            result.insert(Listed(exporter: path[0], group: path[1], cls: String(path[2].dropLast()), name: String(path[3].dropLast())))
        }
        return result
    }

    /// One labgrid-client command: 30 s for a Python client's start-up and its round trip to the coordinator
    /// on a loaded 2-core machine.
    static func client(_ coordinator: String, _ arguments: [String]) async throws -> CommandResult {
        try await ChildProcess.run([LabgridPeer.program("labgrid-client")] + arguments, deadline: .seconds(30),
                                   environment: ["LG_COORDINATOR": coordinator])
    }

    @Test func aRealExporterRegistersEveryResource() async throws {
        try await LabgridPeer.ensureInstalled()
        let directory = try TemporaryDirectory.make("hil-labgrid")
        defer { TemporaryDirectory.remove(directory) }
        // The two files: the lab bench example, and a rig with every switch kind.
        var files: [ExportedFile] = []
        for (exporter, rig) in [("bench-host-1", "rigs/lab-bench-example.json"), ("bench-host-2", try SampleLabRig.write(into: directory))] {
            let ran = try await HelpAndVersionTests.hil(["lab", "export", rig])
            try #require(ran.status == 0, "\(ran.stderr)")
            let file = directory.appendingPathComponent("\(exporter).yaml")
            try ran.stdout.write(to: file, atomically: true, encoding: .utf8)
            files.append((exporter, file.path, try await LabgridPeer.read(configAt: file.path, exporter: exporter)))
        }

        let port = try LabgridPeer.freeLoopbackPort()
        let coordinator = "127.0.0.1:\(port)"
        var started: [ChildProgram] = []
        let outcome: Result<Void, any Error>
        do {
            try await Self.exercise(coordinator: coordinator, files: files, workingDirectory: directory, started: &started)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        for program in started.reversed() { await program.stop() }
        #expect(started.allSatisfy { !$0.isRunning }, "every process this test started has ended")
        try outcome.get()
    }

    typealias ExportedFile = (exporter: String, path: String, expected: [String: [String: LabgridResourceReading]])

    /// Starts the coordinator and one exporter per file (each appended to `started` at once, for the caller
    /// to stop whatever happens), then checks what labgrid-client lists and a place's matches.
    static func exercise(coordinator: String, files: [ExportedFile], workingDirectory: URL, started: inout [ChildProgram]) async throws {
        // The coordinator keeps places.yaml and resources.yaml in its working directory: the test's own
        // (`env -C` changes it and execs, so the PID stays the coordinator's).
        let coordinatorProgram = try ChildProgram("/usr/bin/env", ["-C", workingDirectory.path, LabgridPeer.program("labgrid-coordinator"),
                                                                   "--listen", coordinator], name: "labgrid-coordinator")
        started.append(coordinatorProgram)
        // The coordinator serves once labgrid-client can list its (empty) places: nothing announces it, so it is
        // asked every 200 ms, for up to 30 s (a Python start-up of several seconds on a loaded 2-core machine).
        var ready = false
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while !ready && ContinuousClock.now < deadline && coordinatorProgram.isRunning {
            ready = try await Self.client(coordinator, ["places"]).termination.succeeded
            if !ready { try await Task.sleep(for: .milliseconds(200)) }
        }
        try #require(ready, "labgrid-coordinator on \(coordinator) did not answer within 30 s: \(coordinatorProgram.standardError.suffix(5))")
        var exporters: [ChildProgram] = []
        for file in files {
            let exporter = try ChildProgram(LabgridPeer.program("labgrid-exporter"), ["-c", coordinator, "--name", file.exporter, file.path],
                                            name: file.exporter)
            started.append(exporter)
            exporters.append(exporter)
        }

        var expected = Set<Listed>()
        for file in files {
            for (group, resources) in file.expected {
                for (name, resource) in resources {
                    expected.insert(Listed(exporter: file.exporter, group: group, cls: Self.publishedClass[resource.cls] ?? "(\(resource.cls))", name: name))
                }
            }
        }
        #expect(expected.count == 4 + 8)
        // Exporters register asynchronously and nothing announces it: the coordinator is asked every 300 ms, for up to
        // 60 s (two Python exporters starting and registering twelve resources on a loaded 2-core machine).
        var listed = Set<Listed>()
        let listDeadline = ContinuousClock.now.advanced(by: .seconds(60))
        while listed != expected && ContinuousClock.now < listDeadline && exporters.allSatisfy(\.isRunning) {
            listed = Self.listed(try await Self.client(coordinator, ["-vv", "resources"]).stdout)
            if listed != expected { try await Task.sleep(for: .milliseconds(300)) }
        }
        #expect(listed == expected, "missing \(expected.subtracting(listed)); unexpected \(listed.subtracting(expected)); exporter: \(exporters.map { $0.standardError.suffix(5) })")

        // A place for the bench, as docs/lab.md makes one: it matches the bench's resources.
        let group = try #require(files[0].expected.keys.first)
        for arguments in [["-p", "hil-bench-1", "create"], ["-p", "hil-bench-1", "add-match", "bench-host-1/\(group)/*"]] {
            let ran = try await Self.client(coordinator, arguments)
            #expect(ran.termination.succeeded, "\(arguments): \(ran.lastLine)")
        }
        let shown = try await Self.client(coordinator, ["-p", "hil-bench-1", "show"])
        #expect(shown.termination.succeeded, "\(shown.lastLine)")
        let matched = shown.stdout.split(separator: "\n").filter { $0.hasPrefix("Matching resource '") }
        let names = Set(matched.map { String($0.dropFirst("Matching resource '".count).prefix { $0 != "'" }) })
        #expect(names == Set(files[0].expected[group].map { Array($0.keys) } ?? []), "\(shown.stdout)")
    }
}
