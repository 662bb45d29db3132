import GATT
import HILTesting
import Testing

extension StandardSuites {
    /// The accessory enforces its own security: on a link that is not encrypted its protected
    /// characteristic is refused with Insufficient Encryption (0x0F) or Insufficient Authentication (0x05).
    @Suite(.requiresSecuredAccessory) struct ProtectedRefusedUnencrypted {
        @Test(arguments: BenchAccessories.securedNames)
        func refusedWithoutEncryption(accessory: String) async throws {
            try await HILCase.run(accessory: accessory) { bench in
                let link = try await bench.connect(to: try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn))
                #expect(await link.security.encrypted == false)
                switch try await bench.readProtected(link) {
                case .success(let value):
                    Issue.record("the protected value (\(value.count) octets) was served on an unencrypted link")
                case .failure(let error):
                    let code = try #require(error.errorCode, "the read failed without an ATT error: \(error)")
                    #expect([ATTErrorCode.insufficientEncryption, .insufficientAuthentication].contains(code),
                            "refused with \(code), not Insufficient Encryption or Insufficient Authentication")
                }
                try await link.disconnect()
            }
        }
    }
}
