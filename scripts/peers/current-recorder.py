#!/usr/bin/env python3
"""A stand-in for a lab's current recorder (a Joulescope's or an Otii's own tool wrapped to write CSV), for
the tests of hil's `command` meter: it records a current profile the test chooses, in real time, to a CSV
in the form docs/power-meters.md gives, until SIGINT (or SIGTERM) stops it, then writes the samples due up
to that instant and exits 0.

usage: current-recorder.py OUT LEVELS SECONDS_PER_LEVEL [--rate HZ] [--clock start|unix] [--ignore-sigint]
  OUT                the CSV to write (hil's {csv})
  LEVELS             comma-separated currents in µA, each held for SECONDS_PER_LEVEL; the last one holds on
  --rate HZ          samples a second (default 1000)
  --clock            start: `time_s`, seconds from this program's start (default); unix: `unix_s`, seconds
                     since 1970 as the wall clock says
  --ignore-sigint    ignore SIGINT (a tool that only SIGTERM stops)
Prints `recording OUT` once the header and first sample are written."""
import signal
import sys
import time

args = sys.argv[1:]
flags = {"--rate": "1000", "--clock": "start"}
ignore_sigint = "--ignore-sigint" in args
args = [a for a in args if a != "--ignore-sigint"]
positional = []
while args:
    word = args.pop(0)
    if word in flags:
        flags[word] = args.pop(0)
    else:
        positional.append(word)
if len(positional) != 3 or flags["--clock"] not in ("start", "unix"):
    sys.exit(__doc__)
out, levels, per_level = positional[0], [float(x) for x in positional[1].split(",")], float(positional[2])
rate = float(flags["--rate"])
unix = flags["--clock"] == "unix"

stopping = False


def stop(_signal, _frame):
    global stopping
    stopping = True


signal.signal(signal.SIGINT, signal.SIG_IGN if ignore_sigint else stop)
signal.signal(signal.SIGTERM, stop)

start_monotonic = time.monotonic()
start_wall = time.time()
written = 0
with open(out, "w") as csv:
    csv.write("unix_s,current_uA\n" if unix else "time_s,current_uA\n")

    def write_due():
        global written
        due = int((time.monotonic() - start_monotonic) * rate) + 1
        lines = []
        while written < due:
            t = written / rate
            level = levels[min(int(t / per_level), len(levels) - 1)]
            lines.append("%.6f,%g\n" % (start_wall + t if unix else t, level))
            written += 1
        csv.write("".join(lines))
        csv.flush()

    write_due()
    print("recording", out, flush=True)
    while not stopping:
        time.sleep(0.01)
        write_due()
    write_due()
