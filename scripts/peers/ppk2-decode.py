#!/usr/bin/env python3
"""Decodes a PPK2 sample stream with ppk2-api (PyPI, Nordic's PPK2 protocol as the nRF Connect Power Profiler
speaks it), the reference PowerMetersTests compares hil's decoder with.

usage: ppk2-decode.py STREAM METADATA SUPPLY_MV CHUNK
  STREAM    the raw octets the PPK2 streamed (4-octet little-endian words)
  METADATA  the text the PPK2 answered to GET_META_DATA (ending in END)
  SUPPLY_MV the supply voltage ppk2-api's calibration uses
  CHUNK     how many octets each serial read delivers (words are split across reads as on a real port)
Prints one JSON object: {"microamperes": [...], "logic": [...]}, a sample each, in order.

ppk2-api opens its serial port in its constructor; here it gets a port that is never read, since the stream
comes from the file (get_samples takes the octets one read gives)."""
import json
import sys

import ppk2_api.ppk2_api as ppk2


class _NoPort:
    baudrate = 0

    def close(self):
        pass


def main():
    stream_path, metadata_path, supply_mv, chunk = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    ppk2.serial.Serial = lambda *args, **kwargs: _NoPort()
    api = ppk2.PPK2_API("unused")
    with open(metadata_path, encoding="utf-8") as f:
        if not api._parse_metadata(f.read()):
            sys.exit("ppk2-decode: ppk2-api could not parse the metadata")
    api.current_vdd = supply_mv
    data = open(stream_path, "rb").read()
    currents, logic = [], []
    for start in range(0, len(data), chunk):
        samples, bits = api.get_samples(data[start:start + chunk])
        currents.extend(samples)
        logic.extend(bits)
    json.dump({"microamperes": currents, "logic": logic}, sys.stdout)


if __name__ == "__main__":
    main()
