import Foundation

/// `hil-benchmark NAME [options]`: the benchmarks behind scripts/bench/*. Each prints its figures and the
/// ratio against a baseline measured in the same run.
let words = Array(CommandLine.arguments.dropFirst())
let name = words.first ?? ""
let options = BenchmarkOptions(Array(words.dropFirst()))
do {
    switch name {
    case "command-roundtrip": try await CommandRoundTripBenchmark.run(options)
    case "gatt-discovery": try await GATTDiscoveryBenchmark.run(options)
    case "transports": try await TransportBenchmark.run(options)
    case "sim-cycles": try await SimulationCycleBenchmark.run(options)
    default:
        FileHandle.standardError.write(Data("usage: hil-benchmark command-roundtrip [--socket PATH] [--count N] [--rounds N] [--samples PREFIX] | gatt-discovery [--moniker M] [--name N] [--count N] | sim-cycles [--cycles N] | transports …\n".utf8))
        exit(3)
    }
} catch {
    FileHandle.standardError.write(Data("hil-benchmark \(name): \(error)\n".utf8))
    exit(2)
}
