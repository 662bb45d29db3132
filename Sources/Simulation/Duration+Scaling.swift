/// Duration arithmetic the air needs: scaling by a real factor and the HCI time units.
extension Duration {
    /// This duration times `factor`, to the nanosecond; a non-finite or negative product is zero.
    func multiplied(by factor: Double) -> Duration {
        let product = self / .nanoseconds(1) * factor
        guard product.isFinite, product > 0 else { return .zero }
        return .nanoseconds(Int64(min(product, 9e18)))
    }

    /// Units of 0.625 ms (advertising and scan intervals).
    static func slots(_ units: UInt16) -> Duration { .microseconds(625 * Int(units)) }

    /// Units of 1.25 ms (connection intervals).
    static func connectionIntervalUnits(_ units: UInt16) -> Duration { .microseconds(1250 * Int(units)) }

    /// Units of 10 ms (supervision timeouts).
    static func supervisionUnits(_ units: UInt16) -> Duration { .milliseconds(10 * Int(units)) }
}
