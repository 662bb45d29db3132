/// `--name value` pairs for the benchmarks.
struct BenchmarkOptions {
    private var values: [String: String] = [:]

    init(_ words: [String]) {
        var index = 0
        while index < words.count {
            if words[index].hasPrefix("--"), index + 1 < words.count {
                values[String(words[index].dropFirst(2))] = words[index + 1]
                index += 2
            } else {
                index += 1
            }
        }
    }

    func string(_ name: String, default value: String) -> String { values[name] ?? value }
    func int(_ name: String, default value: Int) -> Int { values[name].flatMap(Int.init) ?? value }
}

/// Median, p99 and friends of a sample of durations in microseconds.
struct Percentiles {
    let sorted: [Double]

    init(_ samples: [Double]) { sorted = samples.sorted() }

    func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))
        return sorted[rank]
    }

    var median: Double { percentile(50) }
    var p99: Double { percentile(99) }
}

func format(_ value: Double, _ digits: Int = 1) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    return String((value * scale).rounded() / scale)
}
