import MCUbootImage
import MCUmgr
import Testing

/// The simulated MCUboot built with a signing key (imgtool's, Tests/MCUbootImageTests/Fixtures): as Zephyr's
/// img_mgmt, the image manager checks no signature at upload or test (both answer rc 0 and the slot lists the image
/// pending); at the reset MCUboot's image validation refuses an image whose signature does not verify, erases the
/// secondary slot and boots the running image again (which image imgtool accepts with the key is
/// MCUbootSignatureVerdictTests').
@Suite struct MCUbootSlotsSignatureTests {
    /// Uploads `image`, tests it and resets; returns the image states before and after the reset.
    static func update(_ bench: MCUmgrBench, _ image: [UInt8]) async throws -> (tested: [MCUmgrImageState], booted: [MCUmgrImageState]) {
        var client = try await bench.connect()
        _ = try await client.upload(image)
        let tested = try await client.test(hash: try MCUbootImage(image).hash)
        try await client.reset()
        _ = try await client.link.waitForDisconnection(timeout: .seconds(2))
        client = try await bench.connect()
        return (tested, try await client.imageStates())
    }

    @Test("An image signed with another key is taken and tested, then not booted: the previous image runs, slot 1 is erased")
    func otherKeyRefused() async throws {
        try await MCUmgrBench.with(signingKey: try MCUmgrBench.key("ecdsa-p256")) { bench in
            let (tested, booted) = try await Self.update(bench, try MCUmgrBench.image("signed-ecdsa-p256-other-key"))
            #expect(tested.count == 2 && tested.last?.pending == true, "img_mgmt checks no signature at test")
            #expect(booted.count == 1 && booted.first?.version == "1.2.3.4" && booted.first?.confirmed == true)
            #expect(await bench.slots.secondary == nil)
        }
    }

    @Test("With skipsSignatureCheck, another key's image boots for test")
    func skipsSignatureCheck() async throws {
        try await MCUmgrBench.with(signingKey: try MCUmgrBench.key("ecdsa-p256"), faults: MCUbootSlots.Faults(skipsSignatureCheck: true)) { bench in
            let (_, booted) = try await Self.update(bench, try MCUmgrBench.image("signed-ecdsa-p256-other-key"))
            #expect(booted.first?.version == "2.0.4.80" && booted.first?.active == true && booted.first?.confirmed == false)
        }
    }

    @Test("An image signed with the key boots for test")
    func rightKeyBoots() async throws {
        try await MCUmgrBench.with(signingKey: try MCUmgrBench.key("ecdsa-p256")) { bench in
            let (_, booted) = try await Self.update(bench, try MCUmgrBench.image("signed-ecdsa-p256"))
            #expect(booted.first?.version == "2.0.1.77" && booted.first?.active == true && booted.first?.confirmed == false)
        }
    }

    @Test("A flipped signature octet is refused at boot like another key's signature")
    func flippedRefused() async throws {
        try await MCUmgrBench.with(signingKey: try MCUmgrBench.key("ecdsa-p256")) { bench in
            let (_, booted) = try await Self.update(bench, try MCUmgrBench.image("signed-ecdsa-p256-flipped"))
            #expect(booted.count == 1 && booted.first?.version == "1.2.3.4")
        }
    }
}
