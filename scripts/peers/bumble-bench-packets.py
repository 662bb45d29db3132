#!/usr/bin/env python3
"""Writes the bytes of Bumble's bench packets (bumble/apps/bench.py's Packet) for ThroughputTests.

    .venv/bin/python scripts/peers/bumble-bench-packets.py > Tests/ThroughputTests/Fixtures/bumble-bench-packets.json

Each entry: what the packet is, and the hex Bumble's own encoder gives for it. The test decodes and encodes
each with BenchPacket and compares; Bumble's version is recorded beside them.
"""
import json
import sys
from importlib.metadata import version

from bumble.apps.bench import Packet

CASES = [
    ("reset", Packet(Packet.PacketType.RESET)),
    ("sequence 0, not last, 0 µs, 10 octets", Packet(Packet.PacketType.SEQUENCE, Packet.PacketFlags(0), 0, 0, b"")),
    ("sequence 7, last, 123456 µs, 20 octets", Packet(Packet.PacketType.SEQUENCE, Packet.PacketFlags.LAST, 7, 123456, bytes(10))),
    ("sequence 0x01020304, not last, 0xA0B0C0D0 µs, 244 octets",
     Packet(Packet.PacketType.SEQUENCE, Packet.PacketFlags(0), 0x01020304, 0xA0B0C0D0, bytes(234))),
    ("ack of 41, last", Packet(Packet.PacketType.ACK, Packet.PacketFlags.LAST, 41)),
]

json.dump({"bumble": version("bumble"), "packets": [{"what": what, "hex": bytes(packet).hex()} for what, packet in CASES]},
          sys.stdout, indent=2)
sys.stdout.write("\n")
