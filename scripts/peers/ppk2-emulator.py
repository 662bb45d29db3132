#!/usr/bin/env python3
"""A Power Profiler Kit II on a pseudo-terminal, for the tests of `hil meter` and of ppk2-api against one
meter: it answers the PPK2's serial commands as the real one does (the opcodes and argument lengths of
Nordic's nRF Connect Power Profiler, as ppk2-api sends them) and, from each AVERAGE_START until AVERAGE_STOP,
streams 100,000 samples a second, paced in real time, for a current profile the test chooses, each word
with its sample counter (bits 18-23, one more each sample modulo 64, as a PPK2 numbers them).

usage: ppk2-emulator.py [--port TTY] [--lose N/EVERY] METADATA LEVELS SECONDS_PER_LEVEL
  --port TTY         serve this serial port (a USB gadget's /dev/ttyGS0) instead of a new pseudo-terminal
  --lose N/EVERY     leave out the last N samples of every EVERY, their counters skipped, as a USB path that
                     loses packets would (16 samples are a full-speed packet's 64 octets)
  METADATA           the text to answer GET_META_DATA with (its calibration turns currents into readings)
  LEVELS             comma-separated currents in µA, each streamed for SECONDS_PER_LEVEL from every start
Prints the port's path on its first line, then one line per command it took; runs until killed.

Readings are found here by inverting the calibration formula of the Power Profiler (ppk2-api's
get_adc_result without its filter), on the range a PPK2 would measure each current on: the most sensitive
one whose full scale holds it."""
import os
import sys
import termios
import time
import tty

ARGUMENT_LENGTHS = {0x01: 3, 0x02: 1, 0x03: 1, 0x04: 2, 0x05: 0, 0x06: 0, 0x07: 0, 0x08: 1, 0x09: 1, 0x0a: 0, 0x0c: 1,
                    0x0d: 2, 0x0e: 1, 0x0f: 1, 0x11: 1, 0x12: 1, 0x15: 0, 0x16: 0, 0x19: 0, 0x20: 0, 0x25: 5}


def calibration(text):
    fields = {"R": [1031.64, 101.65, 10.15, 0.94, 0.043], "GS": [1.0] * 5, "GI": [1.0] * 5, "O": [0.0] * 5,
              "S": [0.0] * 5, "I": [0.0] * 5, "UG": [1.0] * 5}
    for line in text.splitlines():
        key, _, value = line.partition(": ")
        for name in fields:
            if key[:-1] == name and key[-1:].isdigit() and int(key[-1]) < 5 and float(value) != 0:
                fields[name][int(key[-1])] = float(value)
    return fields


def amperes(fields, reading, r, volts):
    x = (reading * 4 - fields["O"][r]) * (1.8 / 163840 / fields["R"][r])
    return fields["UG"][r] * (x * (fields["GS"][r] * x + fields["GI"][r]) + (fields["S"][r] * volts + fields["I"][r]))


def word_for(fields, microamperes, volts):
    target = microamperes / 1e6
    for r in range(5):
        if amperes(fields, 0x3FFF, r, volts) * 0.9 >= target:
            break
    # The current grows with the reading: the nearest reading by bisection (14 steps, not 16,384, for a slow guest).
    low, high = 0, 0x3FFF
    while high - low > 1:
        middle = (low + high) // 2
        if amperes(fields, middle, r, volts) < target:
            low = middle
        else:
            high = middle
    best = min((low, high), key=lambda reading: abs(amperes(fields, reading, r, volts) - target))
    return best | (r << 14)


def without_lost(chunk, start, lose, every):
    """The words of `chunk` (samples from index `start` on) less those in the last `lose` of every `every`."""
    kept, index, end = bytearray(), start, start + len(chunk) // 4
    while index < end:
        period = index - index % every
        if index >= period + every - lose:
            index = min(end, period + every)
            continue
        upto = min(end, period + every - lose)
        kept += chunk[(index - start) * 4:(upto - start) * 4]
        index = upto
    return kept


def main():
    arguments = sys.argv[1:]
    port = None
    lose, every = 0, 1
    while arguments[:1] in (["--port"], ["--lose"]):
        if arguments[0] == "--port":
            port = arguments[1]
        else:
            lose, every = (int(x) for x in arguments[1].split("/"))
        arguments = arguments[2:]
    metadata = open(arguments[0], encoding="utf-8").read()
    levels = [float(x) for x in arguments[1].split(",")]
    seconds = float(arguments[2])
    per_level = round(seconds * 100_000)
    fields = calibration(metadata)
    volts = 3.0
    if port:
        master = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(master)
        print(port, flush=True)
    else:
        master, slave = os.openpty()
        tty.setraw(slave)
        print(os.ttyname(slave), flush=True)
    os.set_blocking(master, False)
    pending = b""
    streaming_since = None
    sent = 0
    words = None
    backlog = b""
    while True:
        try:
            pending += os.read(master, 4096)
        except BlockingIOError:
            pass
        except OSError:
            time.sleep(0.005)  # no reader has the port open yet
        while pending:
            opcode = pending[0]
            length = ARGUMENT_LENGTHS.get(opcode, 0)
            if len(pending) < 1 + length:
                break
            arguments, pending = pending[1:1 + length], pending[1 + length:]
            print(f"command 0x{opcode:02x} {arguments.hex()}", flush=True)
            if opcode == 0x19:
                # What a reader before left unread is dropped first, as a PPK2 answers a fresh session.
                backlog = b""
                termios.tcflush(master, termios.TCOFLUSH)
                os.write(master, metadata.encode())
            elif opcode == 0x0d:
                volts = (arguments[0] * 256 + arguments[1]) / 1000
                words = None
            elif opcode == 0x06:
                words = words or [word_for(fields, level, volts) for level in levels]
                streaming_since, sent = time.monotonic(), 0
            elif opcode == 0x07:
                streaming_since, backlog = None, b""
        if streaming_since is None:
            time.sleep(0.002)
            continue
        due = int((time.monotonic() - streaming_since) * 100_000)
        chunk = bytearray()
        # Runs of one level at a time (a level's 64 words, its sample counter 0 to 63 in bits 18-23, repeated
        # from the counter of the run's first sample), so that a slow machine keeps up.
        while sent < due and len(chunk) < 16_000 and len(backlog) < 64_000:
            level = (sent // per_level) % len(levels)
            count = max(1, min(due, (sent // per_level + 1) * per_level, sent + (16_000 - len(chunk)) // 4) - sent)
            cycle = b"".join((words[level] | (k << 18) | ((level & 0xFF) << 24)).to_bytes(4, "little") for k in range(64))
            first = (sent % 64) * 4
            chunk += ((cycle[first:] + cycle[:first]) * (count // 64 + 1))[:count * 4]
            sent += count
        if lose:
            chunk = without_lost(chunk, sent - len(chunk) // 4, lose, every)
        backlog += bytes(chunk)
        # What the port does not take now waits for the next turn, so that commands (a stop) are still read.
        while backlog:
            try:
                backlog = backlog[os.write(master, backlog):]
            except BlockingIOError:
                break
        time.sleep(0.005)


if __name__ == "__main__":
    main()
