import GATT
import StrictJSON

/// The simulated bench's part of the rig format, declared once: the `simulation` block (its controllers, power
/// switch and timing) and an accessory's `simulated` block (its firmware and faults). The readers
/// (`SimulatedWorldDescription(reading:)`, `SimulatedAccessoryDescription(reading:)`) read through these
/// fields; the rig's schema and reference (Rigs) are written from them.
package enum SimulationFormat {
    /// `simulation`.
    package enum Simulation {
        package static let controllers = JSONField("controllers", JSONRule.array(of: JSONRule(.definition(Controller.definition)), minItems: 1, description: "The simulated controllers on the air: the adapter's (sim:NAME) and one per simulated accessory. At least one. Required.", notes: [ReaderNote("The reader also checks that names are unique and that no two controllers share an address (of the same type).", refusals: ["is used twice"])]), required: true)
        package static let powerSwitch = JSONField("powerSwitch", PowerSwitch.definition.reference("A simulated USB power switch: numbered ports, each feeding one controller. Default: none."))
        package static let timing = JSONField("timing", Timing.definition.reference("The simulated air's timing. Default: virtual time with the defaults of each field."))
        package static let shape = JSONShape("simulation", [controllers, powerSwitch, timing])
        package static let definition = JSONDefinition(shape)
    }

    /// `controller`.
    package enum Controller {
        private static let d = SimulatedWorldDescription.Controller(name: "-", address: .zero)
        package static let name = JSONField("name", JSONRule.nonEmptyString(pattern: "^[^\\s/]+$", description: "The controller's name, without whitespace or '/': its moniker is sim:NAME. Required."), required: true)
        package static let address = JSONField("address", JSONRule.string(pattern: "^(?!00([:-]00){5}$)([0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}|[0-9A-Fa-f]{2}(-[0-9A-Fa-f]{2}){5})$", description: "Its identity address (not 00:00:00:00:00:00): the BD_ADDR when addressType is public; when random, a static random address (top two bits 11, the rest neither all 0 nor all 1, e.g. C0:48:49:4C:00:02). Required.", examples: ["00:48:49:4C:00:01", "C0:48:49:4C:00:02"]), required: true)
        package static let addressType = JSONField("addressType", JSONRule.string(choices: ["public", "random"], description: "public or random (a static random address the controller comes with). Default public.", default: "public"))
        package static let rssi = JSONField.integer("rssi", -127...20, default: d.rssi, expected: "an RSSI in dBm from -127 to 20", description: "The RSSI other controllers measure from it, in dBm (-127 to 20), before jitter. Default -55.")
        package static let faults = JSONField("faults", JSONRule.array(of: JSONRule.string(choices: SimulatedFault.allCases.map(\.rawValue), description: "refusesConnections: it advertises but never accepts a connection; unresponsive: it never answers an HCI command (a wedged dongle)."), unique: true, description: "Controller faults to inject, each once. Default: none."))
        package static let manufacturer = JSONField.integer("manufacturer", 0...65535, default: Int(d.manufacturer.rawValue), description: "Company_Identifier of Read Local Version Information, 0 to 65535. Default 1521 (0x05F1, The Linux Foundation).")
        package static let hciVersion = JSONField.integer("hciVersion", 0...255, default: Int(d.hciVersion.rawValue), description: "HCI_Version of Read Local Version Information, 0 to 255. Default 13 (0x0D, Core 5.4).")
        package static let hciSubversion = JSONField.integer("hciSubversion", 0...65535, default: Int(d.hciSubversion), description: "HCI_Subversion, 0 to 65535. Default 1.")
        package static let lmpVersion = JSONField.integer("lmpVersion", 0...255, default: Int(d.lmpVersion.rawValue), description: "LMP_Version, 0 to 255. Default 13 (0x0D, Core 5.4).")
        package static let lmpSubversion = JSONField.integer("lmpSubversion", 0...65535, default: Int(d.lmpSubversion), description: "LMP_Subversion, 0 to 65535. Default 1.")
        package static let leBufferLength = JSONField.integer("leBufferLength", 27...65535, default: Int(d.leBufferLength), description: "LE_ACL_Data_Packet_Length, in octets (27 to 65535). Default 251.")
        package static let leBufferCount = JSONField.integer("leBufferCount", 1...255, default: Int(d.leBufferCount), description: "Total_Num_LE_ACL_Data_Packets (1 to 255). Default 8.")
        package static let leFeatures = JSONField("leFeatures", JSONRule(.unsigned64, description: "LE_Features of LE Read Local Supported Features, as a whole number (0 to 18446744073709551615). Default 9 (LE Encryption and Peripheral-initiated Features Exchange).", default: .number(String(d.leFeatures.rawValue))), expected: "LE_Features as a whole number from 0 to 18446744073709551615")
        package static let maxDataLength = JSONField.integer("maxDataLength", 27...251, default: Int(d.maxDataLength), expected: "a number of octets from 27 to 251 (Core v5.4 Vol 6 Part B §4.5.10)", description: "The longest data PDU payload its link layer sends and receives, in octets (27 to 251, Core v5.4 Vol 6 Part B §4.5.10: supportedMaxTxOctets and supportedMaxRxOctets; the time is that of the PDU on its slowest PHY, 17040 µs for 251 on LE Coded). Above 27 it reports LE Data Packet Length Extension (LE feature bit 5). Default 251.")
        package static let phyNames = ["1M", "2M", "coded"]
        package static let phys = JSONField("phys", JSONRule(.array(items: JSONRule.string(choices: phyNames, description: "1M, 2M or coded (LE Coded, S=2 and S=8)."), tuple: [], minItems: 1, unique: true), description: "The PHYs its link layer supports, each once; 1M always (Core v5.4 Vol 6 Part A §3.2). It reports LE 2M PHY (LE feature bit 8) and LE Coded PHY (bit 11) as listed, and never ends up on a PHY it lacks. Default all three.", default: .strings(phyNames), extra: [.init("contains", .object([.init("const", .string("1M"))]))]), expected: "a list of PHYs from 1M, 2M and coded that includes 1M")
        package static let shape = JSONShape("controller", [name, address, addressType, rssi, faults, manufacturer, hciVersion, hciSubversion, lmpVersion, lmpSubversion, leBufferLength, leBufferCount, leFeatures, maxDataLength, phys],
                                           conditions: [JSONShape.Condition(when: "addressType", is: "random", properties: [("address", .object([.init("pattern", .string("^(?![cC]0([:-]00){5}$)(?![fF]{2}([:-][fF]{2}){5}$)[c-fC-F][0-9A-Fa-f]([:-][0-9A-Fa-f]{2}){5}$"))]))])],
                                           notes: [ReaderNote("leFeatures must be written as plain digits (the reader refuses 9.0 and 9e0 there).")])
        package static let definition = JSONDefinition(shape)
    }

    /// `simulatedPowerSwitch`.
    package enum PowerSwitch {
        package static let name = JSONField("name", JSONRule.nonEmptyString(pattern: "^\\S+$", description: "The switch's name, without spaces: what a power.switch names. Default sim-switch.", default: "sim-switch"), expected: "a switch name")
        package static let ports = JSONField("ports", JSONRule.array(of: JSONRule(.definition(Port.definition)), minItems: 1, description: "Its ports, each feeding one controller. At least one. Required.", notes: [ReaderNote("The reader also checks that each port number is listed once and that each controller is one of simulation.controllers.", refusals: ["is listed twice", "no simulated controller named"])]), required: true)
        package static let shape = JSONShape("simulatedPowerSwitch", [name, ports])
        package static let definition = JSONDefinition(shape)
    }

    /// `simulatedPort`.
    package enum Port {
        package static let number = JSONField.integer("number", 1...255, required: true, expected: "a port number from 1 to 255", description: "The port number, 1 to 255. Required.")
        package static let controller = JSONField("controller", JSONRule.string(description: "The name of the simulated controller this port powers. Required."), required: true)
        package static let shape = JSONShape("simulatedPort", [number, controller])
        package static let definition = JSONDefinition(shape)
    }

    /// `timing`.
    package enum Timing {
        private static let t = SimulationTiming.rigDefault
        package static let clock = JSONField("clock", JSONRule.string(choices: ["virtual", "real"], description: "virtual: time jumps to the next event whenever every part of the world waits, so a run takes as long as its computation while every figure is as at real time; real: real time, for a bench that mixes simulated and real parts. Default virtual.", default: t.clock.rawValue), expected: #""virtual" or "real""#)
        package static let timeScale = JSONField.number("timeScale", 0.001...1000, default: t.timeScale, description: "Multiplies advertising, connection and supervision durations (0.001 to 1000; 0.01 runs a 420 ms supervision timeout in 4.2 ms). Default 1.")
        package static let maximumAdvertisingDelayMilliseconds = JSONField.number("maximumAdvertisingDelayMilliseconds", 0...10, default: t.maximumAdvertisingDelayMilliseconds, expected: "a number of milliseconds from 0 to 10 (advDelay, Core v5.4 Vol 6 Part B §4.4.2.2.1)", description: "The upper bound of the random advDelay added to each advertising interval, in milliseconds (0 to 10, Core v5.4 Vol 6 Part B §4.4.2.2.1). Default 10.")
        package static let usbResetDelayMilliseconds = JSONField.number("usbResetDelayMilliseconds", 0...60000, default: t.usbResetDelayMilliseconds, expected: "a number of milliseconds from 0 to 60000", description: "How long an adapter USB reset keeps the controller away, in milliseconds (0 to 60000). Default 50.")
        package static let rssiJitter = JSONField.integer("rssiJitter", 0...40, default: t.rssiJitter, expected: "a number of dB from 0 to 40", description: "Each advertising report's RSSI varies by up to this many dB either way (0 to 40). Default 2.")
        package static let connectionUpdateInstantEvents = JSONField.integer("connectionUpdateInstantEvents", 6...32767, default: t.connectionUpdateInstantEvents, expected: "a number of connection events from 6 to 32767 (Core v5.4 Vol 6 Part B §5.1.1)", description: "How many connection events after LE Connection Update the new parameters take effect (6 to 32767, Core v5.4 Vol 6 Part B §5.1.1). Default 6.")
        package static let seed = JSONField("seed", JSONRule(.unsigned64, description: "Seeds the air's random numbers (advDelay, RSSI jitter) for a replayable run, 0 to 18446744073709551615. Default: a new seed each run."))
        package static let shape = JSONShape("timing", [clock, timeScale, maximumAdvertisingDelayMilliseconds, usbResetDelayMilliseconds, rssiJitter, connectionUpdateInstantEvents, seed], notes: [ReaderNote("seed must be written as plain digits (the reader refuses 1.0 and 1e3 there).")])
        package static let definition = JSONDefinition(shape)
    }

    /// `simulatedAccessory`.
    package enum Accessory {
        package static let controller = JSONField("controller", JSONRule.string(description: "The simulated controller it runs on: a name in simulation.controllers, used by no other accessory nor the adapter. Required."), required: true,
                                              expected: "the name of a simulated controller")
        package static let name = JSONField("name", JSONRule.string(description: "The complete local name it advertises. Required."), required: true, expected: "the advertised local name")
        package static let services = JSONField("services", JSONRule.array(of: JSONRule(.string(minLength: nil, pattern: nil, format: nil, choices: nil, constant: nil), description: "A ready-made GATT profile: battery, heart-rate, health-thermometer or device-information (also by their abbreviations bas, hr, hrs, thermometer, hts, dis, or their 16-bit UUIDs, in any case).", extra: [.init("anyOf", .array([.object([.init("enum", .strings(StandardProfile.allCases.map(\.rawValue)))]), .object([.init("pattern", .string("^([bB][aA][tT][tT][eE][rR][yY]|[bB][aA][sS]|180[fF]|[hH][eE][aA][rR][tT]-[rR][aA][tT][eE]|[hH][rR]|[hH][rR][sS]|180[dD]|[hH][eE][aA][lL][tT][hH]-[tT][hH][eE][rR][mM][oO][mM][eE][tT][eE][rR]|[tT][hH][eE][rR][mM][oO][mM][eE][tT][eE][rR]|[hH][tT][sS]|1809|[dD][eE][vV][iI][cC][eE]-[iI][nN][fF][oO][rR][mM][aA][tT][iI][oO][nN]|[dD][iI][sS]|180[aA])$"))])]))]), unique: true, description: "The GATT profiles it serves besides GAP and GATT, each once. Default: none.", notes: [ReaderNote("The reader also counts a profile once under all its names (battery and bas are the same).")]))
        package static let advertisingIntervalMilliseconds = JSONField.number("advertisingIntervalMilliseconds", 20...10240, default: 40, expected: "a number of milliseconds from 20 to 10240 (Core v5.4 Vol 6 Part B §4.4.2.2)", description: "Its advertising interval, in milliseconds (20 to 10240, Core v5.4 Vol 6 Part B §4.4.2.2). Default 40.")
        package static let bootDelayMilliseconds = JSONField.number("bootDelayMilliseconds", 0...60000, default: 20, expected: "a number of milliseconds from 0 to 60000", description: "Time from power-on to advertising, in milliseconds (0 to 60000). Default 20.")
        package static let faults = JSONField("faults", Faults.definition.reference("Faults injected into its firmware, so the harness can prove each transition catches them. Default: none."))
        package static let bench = JSONField.boolean("bench", default: false, description: "It serves the speed service of Bumble's bench app (50DB505C-8AC4-4738-8448-3B1D9CC09CC5): it streams SEQUENCE packets of ATT_MTU − 3 octets on RX as fast as the link takes them while a central is subscribed, and acknowledges the last packet a central writes to TX; `hil bench` and the link-layer suites measure it. Default false.")
        package static let requestsIntervalMilliseconds = JSONField.number("requestsIntervalMilliseconds", 7.5...4000, expected: "a number of milliseconds from 7.5 to 4000 (Core v5.4 Vol 6 Part B §4.5.1)", description: "Right after a central connects, it asks for this connection interval with an L2CAP Connection Parameter Update Request (Core v5.4 Vol 3 Part A §4.20), in milliseconds (7.5 to 4000), keeping the link's latency and a supervision timeout of at least the central's. Default: it asks for nothing.")
        package static let dfu = JSONField("dfu", DFU.definition.reference("It updates its firmware over MCUmgr SMP (the SMP service 8D53DC1D-1DB7-4CD3-868B-8A527460AA84) into MCUboot-like slots: uploads go to the secondary slot, test marks it pending, a reset swaps it in after checking its hash, an unconfirmed image reverts at the next reset; `hil dfu` updates it. Default: none."))
        package static let current = JSONField("current", Current.definition.reference("What it draws from its supply, for a simulated meter to measure: a sleep current and a charge per radio event. Every field has a default (of the order of an nRF52832 at 0 dBm). Default: none (it has no current model, and no meter can measure it)."))
        package static let shape = JSONShape("simulatedAccessory", [controller, name, services, advertisingIntervalMilliseconds, bootDelayMilliseconds, faults, bench, requestsIntervalMilliseconds, dfu, current],
                                           notes: [ReaderNote("The reader also checks that controller names one of simulation.controllers (the rig needs a simulation block) that neither another accessory nor the adapter runs on.", refusals: ["needs the rig's simulation block", "no simulated controller named", "is already used by"])])
        package static let definition = JSONDefinition(shape)
    }

    /// `currentModel`.
    package enum Current {
        private static let m = SimulatedCurrentModel()
        package static let sleep = JSONField.number("sleep_uA", 0...1_000_000, default: m.sleepMicroamperes, expected: "a current in µA from 0 to 1000000", description: "The current between radio events while powered, in µA (0 to 1000000). Default 2.")
        package static let advertisingChannel = JSONField.number("advertisingChannel_uC", 0...1_000_000, default: m.advertisingChannelMicrocoulombs, expected: "a charge in µC from 0 to 1000000", description: "The charge of an advertising event per primary channel it sends on (Core v5.4 Vol 6 Part B §4.4.2.1), in µC (0 to 1000000). Default 4.")
        package static let connectionEvent = JSONField.number("connectionEvent_uC", 0...1_000_000, default: m.connectionEventMicrocoulombs, expected: "a charge in µC from 0 to 1000000", description: "The charge of each connection event (§4.5.1) besides its data PDUs, in µC (0 to 1000000); every event at the interval counts. Default 3.")
        package static let transmit = JSONField.number("transmit_uC_per_us", 0...1000, default: m.transmitMicrocoulombsPerMicrosecond, expected: "a charge in µC per µs from 0 to 1000", description: "The charge per µs of air time of a data PDU it sends (its TX current in A), in µC/µs (0 to 1000). Default 0.0053 (5.3 mA).")
        package static let receive = JSONField.number("receive_uC_per_us", 0...1000, default: m.receiveMicrocoulombsPerMicrosecond, expected: "a charge in µC per µs from 0 to 1000", description: "The charge per µs of air time of a data PDU it receives (its RX current in A), in µC/µs (0 to 1000). Default 0.0054 (5.4 mA).")
        package static let boot = JSONField.number("boot_uC", 0...1_000_000, default: m.bootMicrocoulombs, expected: "a charge in µC from 0 to 1000000", description: "The charge of each boot, at power-on, in µC (0 to 1000000). Default 50.")
        package static let flashErase = JSONField.number("flashErase_uA", 0...1_000_000, default: m.flashEraseMicroamperes, expected: "a current in µA from 0 to 1000000", description: "The current while its flash erases a firmware update's secondary slot (for the dfu block's eraseMilliseconds), in µA (0 to 1000000): charged as that current times that time, at the erase's start. Default 5000.")
        package static let flashWrite = JSONField.number("flashWrite_uA", 0...1_000_000, default: m.flashWriteMicroamperes, expected: "a current in µA from 0 to 1000000", description: "The current while its flash writes an upload's chunk (for the dfu block's writeMillisecondsPerKiB per KiB), in µA (0 to 1000000): charged as that current times that time, at the write's start. Default 5000.")
        package static let shape = JSONShape("currentModel", [sleep, advertisingChannel, connectionEvent, transmit, receive, boot, flashErase, flashWrite])
        package static let definition = JSONDefinition(shape)
    }

    /// `simulatedDFU`.
    package enum DFU {
        package static let version = JSONField("version", JSONRule.string(pattern: "^[0-9]+\\.[0-9]+\\.[0-9]+(\\+[0-9]+)?$", description: "The version of its factory image, as imgtool's --version takes it: major.minor.revision with an optional +build (major and minor up to 255, revision up to 65535). Default 1.0.0.", default: "1.0.0"), expected: "a version like 1.0.0 or 1.2.3+4")
        package static let slotSizeKiB = JSONField.integer("slotSizeKiB", 4...8192, default: 384, description: "The size of each slot in KiB (4 to 8192): an upload longer than this is refused (INVALID_IMAGE_TOO_LARGE). Default 384.")
        package static let eraseMilliseconds = JSONField.number("eraseMilliseconds", 0...600000, default: 500, expected: "a number of milliseconds from 0 to 600000", description: "Erasing the secondary slot, on an upload's first chunk or an erase request, in milliseconds (0 to 600000). Default 500.")
        package static let writeMillisecondsPerKiB = JSONField.number("writeMillisecondsPerKiB", 0...60000, default: 2, expected: "a number of milliseconds from 0 to 60000", description: "Writing 1 KiB of an upload chunk to flash, in milliseconds (0 to 60000). Default 2.")
        package static let swapMilliseconds = JSONField.number("swapMilliseconds", 0...600000, default: 2000, expected: "a number of milliseconds from 0 to 600000", description: "MCUboot's swap at boot (either way), in milliseconds (0 to 600000), before it advertises again. Default 2000.")
        package static let signingKey = JSONField("signingKey", JSONRule.string(description: "The PEM public key its MCUboot is built with (ECDSA P-256 or Ed25519, as `imgtool getpub -e pem` writes it; an imgtool private key gives its public half), relative to the rig file: read when the rig is loaded, and at each reset a pending image whose signature does not verify with it is refused (slot 1 erased, the previous image boots). Default: none (MCUboot checks the image's hash only).", notes: [ReaderNote("The reader also reads the key file (relative to the rig file; to the working directory for a rig read from no file), which must hold a PEM ECDSA P-256 or Ed25519 key.", refusals: ["cannot read it", "more than a key file's limit", "not a PEM ECDSA P-256 or Ed25519 key"])]), expected: "the path of a PEM public key")
        package static let signedWith = JSONField("signedWith", JSONRule.string(description: "For the test bench only: the PEM private key (ECDSA P-256, as `imgtool keygen -t ecdsa-p256` writes it) the FirmwareUpdateCampaign signs the images it uploads with, relative to the rig file; never a product's key. With signingKey it must be that key's private half. Read when the rig is loaded. Default: none (the campaign's images are unsigned, and its case for another key's signature is skipped).", notes: [ReaderNote("The reader also reads the key file (relative to the rig file, like signingKey), which must hold a PEM ECDSA P-256 private key whose public half is signingKey's when that is given.", refusals: ["cannot read it", "more than a key file's limit", "not a PEM ECDSA P-256 private key", "not the private half of signingKey"])]), expected: "the path of a PEM private key")
        package static let shape = JSONShape("simulatedDFU", [version, slotSizeKiB, eraseMilliseconds, writeMillisecondsPerKiB, swapMilliseconds, signingKey, signedWith])
        package static let definition = JSONDefinition(shape)
    }

    /// `accessoryFaults`.
    package enum Faults {
        static let faultMilliseconds = "a number of milliseconds above 0 and at most 600000"
        package static let stopsAdvertisingAfterPowerCycles = JSONField.integer("stopsAdvertisingAfterPowerCycles", 1...1000000, description: "It no longer advertises once it has been powered on more than this many times, counting the first (1 to 1000000). Default: never.")
        package static let dropsLinkAfterMilliseconds = JSONField.number("dropsLinkAfterMilliseconds", above: 0, atMost: 600000, expected: faultMilliseconds, description: "It drops every link this long after it forms (Disconnect, 0x13), in milliseconds (above 0, at most 600000). Default: never.")
        package static let slowATTMilliseconds = JSONField.number("slowATTMilliseconds", above: 0, atMost: 600000, expected: faultMilliseconds, description: "Its ATT server answers every request this late, in milliseconds (above 0, at most 600000). Default: at once.")
        package static let rebootsOnWrite = JSONField.boolean("rebootsOnWrite", default: false, description: "Any write to its GATT database reboots it (links lost, advertising again after the boot delay). Default false.")
        package static let refusesConnections = JSONField.boolean("refusesConnections", default: false, description: "Its controller never accepts a connection (LE Create Connection stays pending). Default false.")
        package static let forgetsBondsOnPowerCycle = JSONField.boolean("forgetsBondsOnPowerCycle", default: false, description: "It loses its bonds at every power cycle (keys kept in RAM instead of flash). Default false.")
        package static let servesProtectedUnencrypted = JSONField.boolean("servesProtectedUnencrypted", default: false, description: "Its protected characteristic is readable on an unencrypted link (the firmware forgot the permission). Default false.")
        package static let rejectsPairing = JSONField.boolean("rejectsPairing", default: false, description: "It answers every Pairing Request with Pairing Failed, 0x05 Pairing Not Supported. Default false.")
        package static let answersWithWrongLTK = JSONField.boolean("answersWithWrongLTK", default: false, description: "It answers a reconnecting central's LTK request with a wrong key (the link ends with a MIC failure). Default false.")
        package static let maliciousATT = JSONField("maliciousATT", JSONRule.string(choices: SimulatedMaliciousATT.allCases.map(\.rawValue), description: "Its ATT server misbehaves on purpose in answer to GATT discovery: truncated-response (Read By Group Type answered with its opcode alone), oversized-response (a response over the ATT_MTU of 23), wrong-opcode (a Read Response instead), wrong-handle (Find Information answered for a handle outside the range asked), mtu-zero (Exchange MTU answered with 0), backwards-handles (a service group ending before it starts), zero-handle (a service at handle 0x0000). Default: none."))
        package static let rejectsPHY2M = JSONField.boolean("rejectsPHY2M", default: false, description: "Its host prefers LE 1M and LE Coded only (LE Set Default PHY without LE 2M), so a central's request for LE 2M leaves the link on LE 1M. Default false.")
        package static let stopsNotifyingWhenMTUGrows = JSONField.boolean("stopsNotifyingWhenMTUGrows", default: false, description: "With bench, its stream stops once the ATT_MTU is above 23 (a firmware that breaks on a larger MTU). Default false.")
        package static let halvesNotificationRate = JSONField.boolean("halvesNotificationRate", default: false, description: "With bench, it waits after each notification as long as the notification took: half the rate the link offers (a firmware change that halved throughput). Default false.")
        package static let dfuLosesUploadOffsetAtReset = JSONField.boolean("dfuLosesUploadOffsetAtReset", default: false, description: "With dfu, it keeps an upload's offset in RAM: after a reset the next upload starts over from 0 instead of resuming. Default false.")
        package static let dfuConfirmsItself = JSONField.boolean("dfuConfirmsItself", default: false, description: "With dfu, its application confirms whatever image it booted, at once: an image swapped in for test never reverts. Default false.")
        package static let dfuBricksOnInterruptedSwap = JSONField.boolean("dfuBricksOnInterruptedSwap", default: false, description: "With dfu, a power cut during MCUboot's swap leaves it unbootable (no swap status kept): it never advertises again. Default false.")
        package static let dfuSkipsSignatureCheck = JSONField.boolean("dfuSkipsSignatureCheck", default: false, description: "With dfu and its signingKey, its MCUboot checks an image's hash but not its signature (built without the check): an image signed with another key boots. Default false.")
        package static let shape = JSONShape("accessoryFaults", [stopsAdvertisingAfterPowerCycles, dropsLinkAfterMilliseconds, slowATTMilliseconds, rebootsOnWrite, refusesConnections, forgetsBondsOnPowerCycle, servesProtectedUnencrypted, rejectsPairing, answersWithWrongLTK, maliciousATT, rejectsPHY2M, stopsNotifyingWhenMTUGrows, halvesNotificationRate, dfuLosesUploadOffsetAtReset, dfuConfirmsItself, dfuBricksOnInterruptedSwap, dfuSkipsSignatureCheck])
        package static let definition = JSONDefinition(shape)
    }
}
