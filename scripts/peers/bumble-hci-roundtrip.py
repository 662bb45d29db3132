#!/usr/bin/env python3
"""HCI command round trip through Google's Bumble host (PyPI `bumble`): the same work as
`hil-benchmark command-roundtrip` does through our HCIHost, for scripts/bench/bench-hci.

Opens Bumble's transport to the controller, creates a bumble.host.Host on it, resets it (Host.reset: HCI
Reset and Bumble's usual initialisation), then times COUNT round trips of
`host.send_command(HCI_Read_BD_ADDR_Command())` — from the call to its Command Complete — one at a time,
in ROUNDS rounds of COUNT/ROUNDS, each round on a freshly opened transport and host (as our benchmark
opens a fresh host per round). Prints one line

    bumble median_us M p99_us P n N

(median and 99th percentile, nearest rank, as hil-benchmark's Percentiles), and with --samples FILE
appends every sample in µs to FILE, one a line. Exits 0 on success, 1 when a command fails or the
controller does not answer within --timeout seconds, 2 when the transport cannot be opened.

    bumble-hci-roundtrip.py unix:/tmp/bt-server-le [--count 6000] [--rounds 3] [--samples FILE]
"""
import argparse
import asyncio
import math
import sys
import time

from bumble import hci
from bumble.host import Host
from bumble.transport import open_transport


def percentile(sorted_samples, p):
    rank = min(len(sorted_samples) - 1, max(0, math.ceil(p / 100 * len(sorted_samples)) - 1))
    return sorted_samples[rank]


async def one_round(spec: str, count: int, timeout: float) -> list:
    try:
        transport = await open_transport(spec)
    except Exception as error:  # Bumble raises OSError, ValueError, … depending on the scheme
        raise ConnectionError(f"cannot open transport {spec}: {error}") from error
    try:
        host = Host(transport.source, transport.sink)
        await asyncio.wait_for(host.reset(), timeout)
        command = hci.HCI_Read_BD_ADDR_Command
        send = host.send_command
        samples = []
        clock = time.perf_counter_ns
        for _ in range(count):
            start = clock()
            response = await send(command(), response_timeout=timeout)
            samples.append((clock() - start) / 1000)
            if response.return_parameters.status != hci.HCI_SUCCESS:
                raise RuntimeError(f"Read BD_ADDR failed with status 0x{response.return_parameters.status:02x}")
        return samples
    finally:
        try:
            await asyncio.wait_for(transport.close(), 1.0)
        except (asyncio.TimeoutError, Exception):
            pass


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("transport")
    parser.add_argument("--count", type=int, default=6000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=5.0)
    parser.add_argument("--samples", help="append every sample (µs) to this file, one a line")
    args = parser.parse_args()
    if args.count < 1 or args.rounds < 1 or args.count < args.rounds:
        print("bumble-hci-roundtrip: --count and --rounds must be positive and count >= rounds", file=sys.stderr)
        return 1
    samples = []
    try:
        for _ in range(args.rounds):
            samples += await one_round(args.transport, args.count // args.rounds, args.timeout)
    except ConnectionError as error:
        print(f"bumble-hci-roundtrip: {error}", file=sys.stderr)
        return 2
    except (asyncio.TimeoutError, hci.HCI_Error, RuntimeError) as error:
        print(f"bumble-hci-roundtrip: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    if args.samples:
        with open(args.samples, "a") as out:
            out.write("".join(f"{s:.3f}\n" for s in samples))
    ordered = sorted(samples)
    print(f"bumble median_us {percentile(ordered, 50):.1f} p99_us {percentile(ordered, 99):.1f} n {len(samples)}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
