#!/usr/bin/env python3
"""Bumble's own bench app (bumble.apps.bench, the `bumble-bench` entry point; Bumble is pinned by
scripts/peers/venv), with one fix and, when asked, quieter logs:

- In Bumble 0.0.236 its Sender asks the packet I/O `can_receive()` after the last packet, to wait for the
  receiver's ACK, but the GATT client and server I/Os lack that method, so a GATT sender dies with
  AttributeError before the ACK (and its speed line) comes. Both GATT I/Os do receive (the ACK comes as a
  notification or a write), so they answer True, as the streamed I/Os do.
- --quiet-packets (given before Bumble's own options) drops the app's per-packet log lines (`Sending packet`
  on the sender; `Received packet`, `Speed:` and the jitter histogram on the receiver), whose emission costs
  more than the stack's own work, and logs totals instead. The receiver, at its last packet, or when the link
  ends, SIGTERM stops it or it exits before that (a stream whose last packet never came): `RECEIVED packets=P bytes=B
  missing=M seconds=S average=A last=0|1`, where bytes, seconds and average are the Receiver's own
  total_bytes_received and average at the latest packet (octets/s since its RESET) and missing counts the
  sequence numbers skipped. The sender, once its last packet is handed to the GATT layer: `SENT packets=P
  bytes=B seconds=S average=A`, timed from its first SEQUENCE packet.

    .venv/bin/python scripts/peers/bumble-bench.py [--quiet-packets] [bumble-bench options] central|peripheral TRANSPORT
"""
import atexit
import logging
import signal
import struct
import sys
import time

import bumble.logging
from bumble.apps import bench

for io in (bench.GattClient, bench.GattServer):
    if not hasattr(io, "can_receive"):
        io.can_receive = lambda self: True

PER_PACKET = ("Sending packet ", "<<< Received packet ", "Speed: ", "@@@ >= ")


def quiet_packets():
    received = bench.Receiver.on_packet_received
    receivers = []

    def totals(self, last):
        if len(self.measurements) < 2:
            return
        seconds = self.measurements[-1][0] - self.measurements[0][0]
        logging.info(f"RECEIVED packets={len(self.measurements) - 1} bytes={self.total_bytes_received} "
                     f"missing={self.missing} seconds={seconds:.6f} average={self.total_bytes_received / seconds:.4f} last={last}")

    def counted(self, data):
        if data[:1] == b"\x00" or not hasattr(self, "missing"):
            self.missing, self.expected = 0, 0
            receivers[:] = [self]
        received(self, data)
        if len(data) < 10 or data[0] != 1:
            return
        flags, sequence = struct.unpack_from("<BI", data, 1)
        self.missing += max(0, sequence - self.expected)
        self.expected = sequence + 1
        if flags & 1:
            totals(self, 1)
            receivers.clear()

    def stopped(*_):
        for receiver in receivers:
            totals(receiver, 0)
        sys.exit(143)

    reset = bench.Receiver.reset

    def reset_after_totals(self):
        # The app resets its Receiver when the link ends: a stream whose last packet never came is logged first.
        if self in receivers:
            totals(self, 0)
            receivers.clear()
        reset(self)

    signal.signal(signal.SIGTERM, stopped)
    atexit.register(lambda: [totals(receiver, 0) for receiver in receivers])
    bench.Receiver.on_packet_received = counted
    bench.Receiver.reset = reset_after_totals
    sender_init = bench.Sender.__init__

    def timed(self, packet_io, *arguments, **options):
        sender_init(self, packet_io, *arguments, **options)
        send = packet_io.send_packet
        totals = {}

        async def send_packet(packet):
            if packet[:1] == b"\x01" and struct.unpack_from("<I", packet, 2)[0] == 0:
                totals.update(first=time.time(), packets=0, bytes=0)
            await send(packet)
            if packet[:1] == b"\x01":
                totals["packets"] += 1
                totals["bytes"] += len(packet)
                if packet[1] & 1:
                    seconds = time.time() - totals["first"]
                    logging.info(f"SENT packets={totals['packets']} bytes={totals['bytes']} seconds={seconds:.6f} "
                                 f"average={totals['bytes'] / seconds:.4f}")

        packet_io.send_packet = send_packet

    bench.Sender.__init__ = timed
    for handler in logging.getLogger().handlers:
        handler.addFilter(lambda record: not str(record.msg).lstrip("\x1b[0123456789;m").startswith(PER_PACKET))


if __name__ == "__main__":
    bumble.logging.setup_basic_logging("INFO")
    if sys.argv[1:2] == ["--quiet-packets"]:
        del sys.argv[1]
        quiet_packets()
    bench.bench()
