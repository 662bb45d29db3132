/// A rig that uses every key the rig reader accepts (every switch kind with each of its keys, every
/// simulated controller, timing, accessory, fault, security and budget field, both forms of `verify`), so
/// the generated variants reach keys no shipped rig has. It is a usable rig: the reader accepts it.
enum EveryKeyRig {
    static let text = #"""
        {
          "$schema": "./rig.schema.json",
          "name": "every-key",
          "description": "",
          "adapter": {"moniker": "sim:central", "power": {"switch": "sim-switch", "port": 3}},
          "meters": [{"name": "lock-meter", "kind": "simulated", "voltage_mV": 3300},
                     {"name": "bench-ppk2", "kind": "ppk2", "port": "usb:1915:c00a/C4F1D3A2B1E0", "mode": "source", "voltage_mV": 1800}],
          "powerSwitches": [
            {"name": "pdu-outlet", "kind": "command", "on": ["pdu", "on", "3"], "off": ["pdu", "off", ""], "status": ["pdu", "status"],
             "statePattern": {"on": "outlet(On|1)", "off": "outletOff"}, "deadlineSeconds": 10, "verify": "none"},
            {"name": "hub-port", "kind": "usb-hub", "hub": "1-1.4", "port": 2, "method": "hub-request", "force": true, "repeat": 2,
             "verify": {"devices": ["2fe3:000b/SERIAL1", "1-1.4.2", "1-1.4.2=10c4:ea60"], "deadlineSeconds": 3, "onDeadlineSeconds": 12}},
            {"name": "strap-ykush", "kind": "ykush", "serial": "YK12345", "ports": [1, 2]},
            {"name": "relay-board", "kind": "relay", "vendor": "dcttech", "serial": "ABCDE", "ports": [4]},
            {"name": "emulator", "kind": "process", "argv": ["python3", "-m", "sensor", ""], "environment": {"PYTHONUNBUFFERED": "1", "EMPTY": ""},
             "readyPattern": "advertising", "readyDeadlineSeconds": 10, "stopDeadlineSeconds": 5, "pidFile": "/tmp/every-key-emulator.pid"},
            {"name": "lab-outlet", "kind": "labgrid", "place": "bench-1", "resource": "NetworkPowerPort", "coordinator": "127.0.0.1:20408"}
          ],
          "labgrid": {"place": "bench-1", "coordinator": "127.0.0.1:20408"},
          "simulation": {
            "controllers": [
              {"name": "central", "address": "00:48:49:4C:00:01", "addressType": "public", "rssi": -40, "faults": ["unresponsive"],
               "manufacturer": 1521, "hciVersion": 13, "hciSubversion": 1, "lmpVersion": 12, "lmpSubversion": 2,
               "leBufferLength": 251, "leBufferCount": 8, "leFeatures": 9, "maxDataLength": 200,
               "phys": ["1M", "coded"]},
              {"name": "lock", "address": "C0:48:49:4C:00:21", "addressType": "random", "faults": ["refusesConnections"]}
            ],
            "powerSwitch": {"name": "sim-switch", "ports": [{"number": 1, "controller": "lock"}, {"number": 3, "controller": "central"}]},
            "timing": {"clock": "virtual", "timeScale": 1, "maximumAdvertisingDelayMilliseconds": 10, "usbResetDelayMilliseconds": 50,
                       "rssiJitter": 2, "connectionUpdateInstantEvents": 6, "seed": 42}
          },
          "accessories": [
            {"name": "lock", "match": {"name": "HIL-Lock", "address": "C0:48:49:4C:00:21", "service": "180F", "manufacturer": 89},
             "power": {"switch": "sim-switch", "port": 1}, "meter": "lock-meter",
             "energy": {"idleAfterDisconnect": {"avg_uA_max": 10, "after_ms": 500, "window_ms": 1000}, "advertisingEvent": {"charge_uC_max": 20, "window_ms": 10}},
             "expectedServices": ["180F", "5a5e0001-6b1c-4d9e-9a5f-000000000001"],
             "simulated": {"controller": "lock", "name": "HIL-Lock", "services": ["battery", "hrs"], "advertisingIntervalMilliseconds": 40,
                           "bootDelayMilliseconds": 30, "bench": true, "requestsIntervalMilliseconds": 45,
                           "faults": {"stopsAdvertisingAfterPowerCycles": 3, "dropsLinkAfterMilliseconds": 150, "slowATTMilliseconds": 250,
                                      "rebootsOnWrite": false, "refusesConnections": false, "forgetsBondsOnPowerCycle": false,
                                      "servesProtectedUnencrypted": false, "rejectsPairing": false, "answersWithWrongLTK": false,
                                      "maliciousATT": "mtu-zero", "rejectsPHY2M": false, "stopsNotifyingWhenMTUGrows": false,
                                      "halvesNotificationRate": false},
                           "current": {"sleep_uA": 3, "advertisingChannel_uC": 5, "connectionEvent_uC": 2.5, "transmit_uC_per_us": 0.006,
                                       "receive_uC_per_us": 0.0055, "boot_uC": 40}},
             "security": {"pairing": "passkey", "passkey": 123456, "legacy": false, "protection": "authentication",
                          "protectedCharacteristic": "5a5e0002-6b1c-4d9e-9a5f-000000000001", "privacy": true},
             "link": {"mtu": 247, "dataLength": 251, "phy": "coded-s8", "updateMilliseconds": 1500, "requestedIntervalMilliseconds": 45,
                      "centralIntervalMilliseconds": 15,
                      "notify": {"characteristic": "016A2CC7-E14B-4819-935F-1F56EAE4098D", "seconds": 2, "floorBitsPerSecond": 100000,
                                 "latencyP95Milliseconds": 50},
                      "write": {"seconds": 1.5, "floorBitsPerSecond": 50000}}},
            {"name": "thermometer", "match": {"name": "Thermo-42"}, "power": {"switch": "hub-port", "port": 2}, "malicious": true, "meter": "bench-ppk2",
             "firmwareUpdate": {"eraseMilliseconds": 800, "swapMilliseconds": 1500, "bootMilliseconds": 20}},
            {"name": "strap", "match": {"service": "180D"}, "power": {"switch": "strap-ykush", "port": 1}},
            {"name": "relayed", "match": {"address": "C0-48-49-4C-00-31"}, "power": {"switch": "relay-board", "port": 4}},
            {"name": "emulated", "match": {"name": "HIL-Emulated"}, "power": {"switch": "emulator", "port": 1},
             "security": {"pairing": "just-works", "protection": "encryption"}},
            {"name": "pdu-powered", "match": {"manufacturer": 0}, "power": {"switch": "pdu-outlet", "port": 1}}
          ],
          "budgets": {
            "advertisingAfterPowerOnMilliseconds": 3000, "connectMilliseconds": 3000, "discoveryMilliseconds": 5000,
            "linkLossMarginMilliseconds": 1000, "reconnectMilliseconds": 5000, "adapterResetMilliseconds": 5000,
            "supervisionTimeoutMilliseconds": 420, "connectionIntervalMilliseconds": 30, "stabilityCycles": 10,
            "connectP95Milliseconds": 3000, "discoveryP95Milliseconds": 5000, "minimumSuccessRate": 0.98,
            "pairingMilliseconds": 5000, "encryptionMilliseconds": 2000
          },
          "remoteLossReasons": ["0x08", "15"],
          "localDisconnectReasons": ["0X16"],
          "reportsLinkLoss": true,
          "peerSeesAdapterReset": true
        }
        """#
}
