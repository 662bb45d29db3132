/// The order report.html lists its cases in, in the case table and in the details alike: product
/// failures first, then infrastructure errors — what a reader opens the report for — then every other
/// case (passed and skipped together) in run order. Each group keeps the run's order.
enum ReportOrder {
    static func ordered(_ cases: [CaseResult]) -> [CaseResult] {
        cases.filter { $0.verdict == .failed } + cases.filter { $0.verdict == .infrastructureError }
            + cases.filter { $0.verdict != .failed && $0.verdict != .infrastructureError }
    }

    /// The cases a reader must look at: failures and infrastructure errors, in report order.
    static func needingAttention(_ cases: [CaseResult]) -> [CaseResult] {
        ordered(cases).filter { $0.verdict == .failed || $0.verdict == .infrastructureError }
    }
}
