import Foundation
import Testing
import TestSupport

/// `hil meter ppk2:PORT` against a PPK2 on a pseudo-terminal (scripts/peers/ppk2-emulator.py: the PPK2's serial
/// commands, its metadata, 100,000 samples a second in real time for a current profile), read in turn by hil
/// and by ppk2-api (PyPI, through scripts/peers/ppk2-read.py, as its own example reads a PPK2): at four levels
/// from 1 µA to 50 mA the two agree on each window's average current within 1%, and each is the level the
/// profile streams. Then what a meter that says nothing, or stops, makes hil say.
@Suite(.serialized, .tags(.process)) struct MeterCommandPPK2Tests {
    static let python = repositoryRoot.appendingPathComponent(".venv/bin/python").path
    static let emulator = repositoryRoot.appendingPathComponent("scripts/peers/ppk2-emulator.py").path
    static let reader = repositoryRoot.appendingPathComponent("scripts/peers/ppk2-read.py").path
    static let metadata = repositoryRoot.appendingPathComponent("Tests/Fixtures/PPK2/metadata.txt").path
    static let levels = [1.0, 100, 5_000, 50_000]

    static func requireVenv() async throws {
        if !FileManager.default.isExecutableFile(atPath: python) {
            let made = await runProgram(repositoryRoot.appendingPathComponent("scripts/peers/venv").path, [])
            try #require(made.status == 0, "cannot create the Python venv for ppk2-api: \(made.output)")
        }
    }

    /// The emulator, started, and the pseudo-terminal it serves.
    static func startEmulator(seconds: Double = 0.25) async throws -> (ChildProgram, String) {
        let emulator = try ChildProgram(python, [Self.emulator, metadata, levels.map { "\($0)" }.joined(separator: ","), "\(seconds)"], name: "ppk2-emulator")
        // Its first line, printed at once; 20 s only for a loaded machine starting Python.
        guard let line = await emulator.line(within: .seconds(20)), line.text.hasPrefix("/dev/") else {
            await emulator.stop()
            throw ChildProgramError("the PPK2 emulator printed no pseudo-terminal")
        }
        return (emulator, line.text)
    }

    static func json(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    @Test("hil meter and ppk2-api read the same PPK2 and agree on each window's average current within 1%, 1 µA to 50 mA")
    func agreesWithPPK2API() async throws {
        try await Self.requireVenv()
        let (emulator, port) = try await Self.startEmulator()
        defer { Task { await emulator.stop() } }
        let hil = await runProgramCapturing(try ChildProgram.hilBinary(), ["meter", "ppk2:\(port)", "--seconds", "1", "--window", "0.25", "--json"])
        try #require(hil.termination?.exitStatus == 0, "hil meter: \(hil.stderr)")
        let ours = try #require(Self.json(hil.stdout))
        let reference = await runProgramCapturing(Self.python, [Self.reader, port, "3000", "1", "0.25"])
        try #require(reference.termination?.exitStatus == 0, "ppk2-read.py: \(reference.stderr)")
        let theirs = try #require(Self.json(reference.stdout)?["windows"] as? [Double])
        let windows = try #require(ours["windows"] as? [[String: Any]])
        #expect(ours["samples"] as? Int == 100_000 && ours["seconds"] as? Double == 1)
        #expect(ours["lost_samples"] as? Int == 0, "the emulator numbers every sample it sends: none lost on a pseudo-terminal")
        #expect(ours["meter"] as? String == "ppk2" && ours["mode"] as? String == "ampere" && ours["voltage_mV"] as? Int == 3000)
        try #require(windows.count == 4 && theirs.count == 4, "hil: \(windows.count) windows, ppk2-api: \(theirs.count)")
        for (index, level) in Self.levels.enumerated() {
            let mine = try #require(windows[index]["avg_uA"] as? Double)
            #expect(abs(mine - theirs[index]) <= 0.01 * theirs[index], "window \(index): hil \(mine) µA, ppk2-api \(theirs[index]) µA")
            #expect(abs(mine - level) <= 0.05 * level, "window \(index): hil \(mine) µA for a profile of \(level) µA")
            // Charge is the average current over the window's quarter second.
            #expect(abs((windows[index]["charge_uC"] as? Double ?? 0) - mine * 0.25) <= 1e-6 * max(1, mine))
        }
        let total = try #require(ours["avg_uA"] as? Double)
        #expect(abs(total - Self.levels.reduce(0, +) / 4) <= 0.05 * Self.levels.reduce(0, +) / 4)
    }

    /// What a killed run leaves: a program that started the PPK2's stream and ended without AVERAGE_STOP, the
    /// samples piling up in the port behind it.
    @Test("A PPK2 left streaming is stopped and read: the next hil meter gets its metadata and every sample, none lost")
    func leftStreaming() async throws {
        try await Self.requireVenv()
        let (emulator, port) = try await Self.startEmulator()
        defer { Task { await emulator.stop() } }
        let starter = await runProgramCapturing(Self.python, ["-c", "import os, sys, time; fd = os.open(sys.argv[1], os.O_RDWR | os.O_NOCTTY); os.write(fd, bytes([0x06])); time.sleep(0.3)", port])
        try #require(starter.termination?.exitStatus == 0, "\(starter.stderr)")
        let hil = await runProgramCapturing(try ChildProgram.hilBinary(), ["meter", "ppk2:\(port)", "--seconds", "1", "--window", "0.25", "--json"])
        try #require(hil.termination?.exitStatus == 0, "hil meter: \(hil.stderr)")
        let ours = try #require(Self.json(hil.stdout))
        #expect(ours["samples"] as? Int == 100_000 && ours["lost_samples"] as? Int == 0)
        let windows = try #require(ours["windows"] as? [[String: Any]])
        try #require(windows.count == 4)
        for (index, level) in Self.levels.enumerated() {
            let mine = try #require(windows[index]["avg_uA"] as? Double)
            #expect(abs(mine - level) <= 0.05 * level, "window \(index): \(mine) µA, the profile \(level) µA")
        }
    }

    @Test("A port that is no meter, and a meter that never answers: one line, exit 2")
    func badMeters() async throws {
        let missing = await runProgramCapturing(try ChildProgram.hilBinary(), ["meter", "ppk2:/dev/nonexistent-ppk2", "--seconds", "0.1"])
        #expect(missing.termination?.exitStatus == 2)
        #expect(missing.stderr == "hil meter: cannot open the meter's port /dev/nonexistent-ppk2: No such file or directory\n")
        let usage = await runProgramCapturing(try ChildProgram.hilBinary(), ["meter", "joulescope:1"])
        #expect(usage.termination?.exitStatus == 3)
        #expect(usage.stderr.hasPrefix("hil meter: 'joulescope:1' is not a meter: ppk2:PORT"))
        // A pseudo-terminal nobody answers on: the metadata's 2 s deadline, then exit 2 saying what came.
        try await Self.requireVenv()
        let silent = try ChildProgram(Self.python, ["-c", "import os, time, tty; m, s = os.openpty(); tty.setraw(s); print(os.ttyname(s), flush=True); time.sleep(60)"], name: "silent-pty")
        defer { Task { await silent.stop() } }
        let port = try #require(await silent.line(within: .seconds(20))?.text)
        let mute = await runProgramCapturing(try ChildProgram.hilBinary(), ["meter", "ppk2:\(port)"])
        #expect(mute.termination?.exitStatus == 2)
        #expect(mute.stderr == "hil meter: PPK2 at \(port): no metadata (GET_META_DATA) within 2.0 seconds; it sent nothing\n")
    }
}
