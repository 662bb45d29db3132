#!/usr/bin/env python3
"""The GATT workload of scripts/bench/bench-gatt through Google's Bumble central (PyPI `bumble`), N times; the
same work as `hil-benchmark gatt-discovery` does through ours (Sources/hil-benchmark/GATTDiscoveryBenchmark.swift):

1. find the accessory by name (untimed: it re-advertises after each link);
2. connect (timed: connect_ms);
3. exchange MTU offering 517, discover all primary services, for each service (in handle order) all its
   characteristics, for each characteristic all its descriptors, then read the value of every
   characteristic with the Read property (long reads as the client does them) (timed: gatt_ms);
4. disconnect and wait for Disconnection Complete (timed: disconnect_ms).

No included services, no Database Hash, no descriptor reads. Prints one line of `key value` pairs

    bumble connect_ms_median … gatt_ms_median … gatt_ms_p99 … disconnect_ms_median … cycle_ms_median … n N
           mtu M services S characteristics C descriptors D values_read V bytes_read B

(medians and p99 nearest rank; the counts are one cycle's, and must be the same every cycle).
Exit status 0 on success, 1 when a cycle fails or the counts change between cycles, 2 when nothing is found
in time or the transport cannot be opened.

    bumble-gatt-workload.py unix:/tmp/bt-server-le --name HIL-Bench [--repeat N] [--timeout 10]
"""
import argparse
import asyncio
import math
import sys
import time

from bumble import hci
from bumble.device import Device, Peer
from bumble.gatt import Characteristic
from bumble.transport import open_transport

from bumble_scan import find
from bumble_lifecycle import close_quietly

OFFERED_MTU = 517  # what our GATTClient offers (ATTServer.maximumSupportedMTU)


async def workload(connection) -> dict:
    peer = Peer(connection)
    counts = {"mtu": await peer.request_mtu(OFFERED_MTU), "services": 0, "characteristics": 0,
              "descriptors": 0, "values_read": 0, "bytes_read": 0}
    services = sorted(await peer.discover_services(), key=lambda s: s.handle)
    counts["services"] = len(services)
    for service in services:
        characteristics = await service.discover_characteristics()
        counts["characteristics"] += len(characteristics)
        for characteristic in characteristics:
            counts["descriptors"] += len(await characteristic.discover_descriptors())
        for characteristic in characteristics:
            if characteristic.properties & Characteristic.Properties.READ:
                value = await peer.read_value(characteristic)
                counts["values_read"] += 1
                counts["bytes_read"] += len(value)
    return counts


def percentile(samples, p):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))]


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("transport")
    parser.add_argument("--name", required=True)
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--address", default="C0:C1:C2:C3:C4:C5")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    if args.repeat < 1:
        print("bumble-gatt-workload: --repeat must be positive", file=sys.stderr)
        return 1
    try:
        transport = await open_transport(args.transport)
    except Exception as error:  # OSError, ValueError, … depending on the scheme
        print(f"bumble-gatt-workload: cannot open transport {args.transport}: {error}", file=sys.stderr)
        return 2
    try:
        device = Device.with_hci("HIL-Bumble-Central", hci.Address(args.address), transport.source, transport.sink)
        await device.power_on()
        times = {"connect_ms": [], "gatt_ms": [], "disconnect_ms": [], "cycle_ms": []}
        first = None
        for cycle in range(args.repeat):
            try:
                advertisement = await find(device, args.name, args.timeout)
            except asyncio.TimeoutError:
                print(f"bumble-gatt-workload: no advertiser named {args.name} within {args.timeout} s", file=sys.stderr)
                return 2
            try:
                start = time.perf_counter()
                connection = await asyncio.wait_for(
                    device.connect(advertisement.address, own_address_type=hci.OwnAddressType.RANDOM), args.timeout)
                connected = time.perf_counter()
                counts = await asyncio.wait_for(workload(connection), args.timeout)
                done = time.perf_counter()
                await asyncio.wait_for(connection.disconnect(), args.timeout)
                disconnected = time.perf_counter()
            except asyncio.TimeoutError:
                print(f"bumble-gatt-workload: cycle {cycle + 1} did not finish within {args.timeout} s", file=sys.stderr)
                return 1
            except Exception as error:  # an ATT or HCI error from the peer or the controller
                print(f"bumble-gatt-workload: cycle {cycle + 1}: {type(error).__name__}: {error}", file=sys.stderr)
                return 1
            if first is not None and counts != first:
                print(f"bumble-gatt-workload: cycle {cycle + 1} found {counts}, the first found {first}", file=sys.stderr)
                return 1
            first = counts
            if counts["services"] == 0:
                print("bumble-gatt-workload: discovery found no services", file=sys.stderr)
                return 1
            times["connect_ms"].append((connected - start) * 1000)
            times["gatt_ms"].append((done - connected) * 1000)
            times["disconnect_ms"].append((disconnected - done) * 1000)
            times["cycle_ms"].append((disconnected - start) * 1000)
        line = (f"bumble connect_ms_median {percentile(times['connect_ms'], 50):.3f}"
                f" gatt_ms_median {percentile(times['gatt_ms'], 50):.3f} gatt_ms_p99 {percentile(times['gatt_ms'], 99):.3f}"
                f" disconnect_ms_median {percentile(times['disconnect_ms'], 50):.3f}"
                f" cycle_ms_median {percentile(times['cycle_ms'], 50):.3f} n {args.repeat}")
        print(line + "".join(f" {key} {value}" for key, value in first.items()))
    finally:
        await close_quietly(transport)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
