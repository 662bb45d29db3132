#!/usr/bin/env python3
"""Reads a PPK2 with ppk2-api (PyPI) as its own example does — metadata, ampere mode, the voltage, start,
read, stop — and prints each window's average current: the reference `hil meter --window` is compared with.

usage: ppk2-read.py PORT SUPPLY_MV SECONDS WINDOW_SECONDS [DEADLINE_SECONDS]
DEADLINE_SECONDS (default 20 × SECONDS + 10) bounds the whole reading; a slow guest needs more.
Prints one JSON object: {"windows": [average µA, ...], "samples": N}."""
import json
import sys
import time

from ppk2_api.ppk2_api import PPK2_API


def main():
    port, supply_mv, seconds, window = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
    wanted, per_window = int(seconds * 100_000), int(window * 100_000)
    api = PPK2_API(port, timeout=1)
    if not api.get_modifiers():
        sys.exit(f"ppk2-read: no metadata from {port}")
    api.use_ampere_meter()
    api.set_source_voltage(supply_mv)
    api.start_measuring()
    limit = float(sys.argv[5]) if len(sys.argv) > 5 else seconds * 20 + 10
    samples, deadline = [], time.monotonic() + limit
    while len(samples) < wanted:
        if time.monotonic() > deadline:
            sys.exit(f"ppk2-read: {len(samples)} of {wanted} samples before the deadline")
        data = api.get_data()
        if data:
            samples.extend(api.get_samples(data)[0])
        else:
            time.sleep(0.001)
    api.stop_measuring()
    samples = samples[:wanted]
    windows = [sum(samples[i:i + per_window]) / per_window for i in range(0, wanted, per_window)]
    json.dump({"windows": windows, "samples": len(samples)}, sys.stdout)


if __name__ == "__main__":
    main()
