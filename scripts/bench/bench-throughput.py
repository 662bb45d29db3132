#!/usr/bin/env python3
"""`hil bench` beside Bumble's own bench app on btvirt, for scripts/bench/bench-throughput (see its header).

Usage: bench-throughput.py HIL_BINARY PACKETS SECONDS ROUNDS

Six runs, one at a time (each holding btvirt's test flock), ROUNDS times over (the rounds interleave ours
and Bumble's, on a machine others share); every process is started here and stopped here by its PID, and
every wait has a deadline (120 s a run; once the sender is done, 10 s more for the receiver):
  notify (the peripheral's GATT server notifies SEQUENCE packets on RX, the central ACKs the LAST on TX):
    baseline   Bumble peripheral (send PACKETS packets)  -> Bumble central (receive)
    ours-c     Bumble peripheral (send PACKETS packets)  -> hil bench central --mode notify
    ours-p     hil bench --peripheral --mode notify, for SECONDS -> Bumble central (receive)
  write (the central writes SEQUENCE packets to TX, the peripheral ACKs the LAST on RX):
    baseline   Bumble central (send PACKETS packets)     -> Bumble peripheral (receive)
    ours-c     hil bench central --mode write, for SECONDS -> Bumble peripheral (receive)
    ours-p     Bumble central (send PACKETS packets)     -> hil bench --peripheral --mode write
Bumble runs as scripts/peers/bumble-bench.py --quiet-packets (its bench app; per-packet log lines replaced by
totals). Every link has ATT_MTU 247 (both centrals offer 247) and carries 244-octet values.

Counted the same way on both sides: a packet's octets are its ATT value, the 10-octet bench header (type,
flags, sequence, timestamp) included, the 3-octet ATT header not; RESET and ACK are not counted. A run is
exact when the receiver counts every packet and octet the sender sent, with no sequence number missing, and
the sender gets the ACK of the last packet; the script exits 1 when a run is not exact or fails.

Rates: each side times itself. The receiver's is its goodput, what it took in: Bumble's from its RESET to the
latest packet (`RECEIVED`, the Receiver's own average), hil bench's from the first packet to the last. The
sender's is what it handed over: Bumble's from its first SEQUENCE packet until the last is handed to its GATT
layer (`SENT`; Bumble queues Write Commands in its host, so for writes this is how fast it queues), hil
bench's from its first packet to the peer's ACK of the last (notify: to its last sent when no ACK came).
The ratio ours/Bumble is of the goodputs' medians over the rounds (each round's ratio printed too), against
the same Bumble peer: as receiver, ours against Bumble's taking in the same Bumble sender's stream; as
sender, the same Bumble receiver's taking in ours against its taking in Bumble's.

btvirt has no air time and no flow control from a receiving host back to the sender: its server writes each
packet to the receiving host's socket without waiting (MSG_DONTWAIT) and drops what does not fit, so a
receiver slower than its sender loses packets (its sequence check shows them) and, when the last is among
them, never acknowledges: such a run is not exact, and is reported with what each side counted.
"""
import fcntl
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUMBLE = [os.path.join(ROOT, ".venv", "bin", "python"), os.path.join(ROOT, "scripts", "peers", "bumble-bench.py"), "--quiet-packets"]
MONIKER = "unix:/tmp/bt-server-le"
BUMBLE_PERIPHERAL = "F1:F1:F1:F1:F1:F1"  # bench.py's DEFAULT_PERIPHERAL_ADDRESS (it advertises the name "Bumble")
SIZE = 244
DEADLINE = 120.0
GRACE = 10.0
ANSI = re.compile(r"\x1b\[[0-9;]*m")


class Failure(Exception):
    pass


class BtvirtLock:
    """The flock every btvirt test takes (Tests/TestSupport/BtvirtPeer.lockPath), held for one run at a time so
    no test shares the air with a run, nor waits longer than a run (tests wait 120 s for it)."""
    PATH = "/tmp/hil-btvirt.lock"

    def __enter__(self):
        self.fd = os.open(self.PATH, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
        deadline = time.monotonic() + 300
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return self
            except BlockingIOError:
                if time.monotonic() > deadline:
                    os.close(self.fd)
                    raise Failure(f"{self.PATH} still held by another btvirt user after 300 s")
                time.sleep(0.05)

    def __exit__(self, *_):
        os.close(self.fd)


class Btvirt:
    """The shared btvirt (scripts/peers/btvirt): used when one runs, started when none does (and then
    stopped at the end, if it is still the one started here). Others' runs stop and start it too."""
    TOOL = os.path.join(ROOT, "scripts", "peers", "btvirt")

    def __init__(self):
        self.started = None

    def pid(self):
        status = subprocess.run([self.TOOL, "status"], capture_output=True, text=True, timeout=10)
        return status.stdout.strip() if status.returncode == 0 else None

    def ensure(self):
        pid = self.pid()
        if pid is None:
            start = subprocess.run([self.TOOL, "start"], capture_output=True, text=True, timeout=30)
            if start.returncode != 0:
                raise Failure(f"btvirt did not start: {start.stderr.strip()}")
            pid = self.started = start.stdout.strip()
        return pid

    def stop(self):
        if self.started and self.pid() == self.started:
            subprocess.run([self.TOOL, "stop"], capture_output=True, timeout=30)


class Process:
    """A process started here, its stdout and stderr in one log file."""

    def __init__(self, name, argv, work):
        self.name = name
        self.bumble = argv[:2] == BUMBLE[:2]
        self.path = os.path.join(work, f"{name}.log")
        self.log = open(self.path, "wb")
        self.process = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT)
        self.cpu = None

    def text(self):
        with open(self.path, "rb") as f:
            return ANSI.sub("", f.read().decode(errors="replace"))

    def running(self):
        """Reaps the process itself (os.wait4) when it has ended, to keep the CPU time it used."""
        if self.process.returncode is None:
            pid, status, usage = os.wait4(self.process.pid, os.WNOHANG)
            if pid:
                self.process.returncode = os.waitstatus_to_exitcode(status)
                self.cpu = usage.ru_utime + usage.ru_stime
        return self.process.returncode is None

    def stop(self):
        """SIGTERM (Bumble then logs its receiver's totals), then SIGKILL after 3 s; returns whether it was running."""
        if not self.running():
            return False
        self.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 3
        while self.running() and time.monotonic() < deadline:
            time.sleep(0.02)
        if self.running():
            self.process.kill()
            while self.running():
                time.sleep(0.02)
        return True

    def tail(self):
        lines = [line for line in self.text().splitlines() if line.strip()]
        return " | ".join(lines[-3:]) or "no output"


def fields(line):
    return {k: float(v) for k, v in re.findall(r"(\w+)=([\d.]+)", line)}


def bumble_sender(text):
    sent = [line for line in text.splitlines() if " SENT " in line]
    if not sent:
        return None
    f = fields(sent[-1])
    return {"packets": int(f["packets"]), "bytes": int(f["bytes"]), "missing": 0, "bps": f["average"] * 8,
            "acknowledged": "Received ACK" in text}


def bumble_receiver(text):
    received = [line for line in text.splitlines() if " RECEIVED " in line]
    if not received:
        return None
    f = fields(received[-1])
    return {"packets": int(f["packets"]), "bytes": int(f["bytes"]), "missing": int(f["missing"]), "bps": f["average"] * 8}


def ours(text):
    for line in reversed(text.splitlines()):
        if line.startswith("{"):
            report = json.loads(line)
            return {"packets": report["packets"], "bytes": report["bytes"], "missing": report["sequence_gaps"],
                    "bps": report["bits_per_second"], "acknowledged": report.get("acknowledged")}
    return None


def run(work, label, peripheral, central, sender_is_peripheral):
    """One run: the peripheral, then (once Bumble's peripheral advertises; our peripheral is found by the
    central's scan) the central. Returns (sender figures, receiver figures, notes)."""
    deadline = time.monotonic() + DEADLINE
    processes = [Process(f"{label}-{peripheral[0]}", peripheral[1], work)]
    notes = []
    try:
        if processes[0].bumble:
            while "Waiting for connection" not in processes[0].text():
                if not processes[0].running() or time.monotonic() > deadline:
                    raise Failure(f"Bumble's peripheral did not advertise: {processes[0].tail()}")
                time.sleep(0.05)
        processes.append(Process(f"{label}-{central[0]}", central[1], work))
        sender, receiver = (processes[0], processes[1]) if sender_is_peripheral else (processes[1], processes[0])
        sender_done = lambda: (" SENT " in sender.text()) if sender.bumble else not sender.running()
        while any(p.running() for p in processes) and time.monotonic() < deadline:
            if sender_done():
                deadline = min(deadline, time.monotonic() + GRACE)
            time.sleep(0.05)
        if not sender_done():
            raise Failure(f"the sender ({sender.name}) did not finish within {DEADLINE:.0f} s: {sender.tail()}")
        for p in processes:
            if p.stop():
                notes.append(f"{p.name} still ran {GRACE:.0f} s after the sender finished; stopped")
            elif not p.bumble and p.process.returncode != 0:
                raise Failure(f"{p.name} exited with status {p.process.returncode}: {p.tail()}")
        read = lambda p, bumble_side: (bumble_side(p.text()) if p.bumble else ours(p.text()))
        sent, got = read(sender, bumble_sender), read(receiver, bumble_receiver)
        if sent is None:
            raise Failure(f"{sender.name} reported nothing sent: {sender.tail()}")
        if got is None:
            raise Failure(f"{receiver.name} reported nothing received: {receiver.tail()}")
        sent["cpu"], got["cpu"] = sender.cpu, receiver.cpu
        return sent, got, notes
    finally:
        for p in processes:
            p.stop()
            p.log.close()


def cpu_per_mb(side):
    """The CPU time (user + system) the side's whole process took, per MB (10^6 octets) it sent or received:
    startup (Python importing Bumble, or hil's), connection and discovery included, so not a ratio's input."""
    return f"{side['cpu'] * 1e6 / side['bytes']:6.3f} s/MB" if side.get("cpu") is not None and side["bytes"] else "     ? s/MB"


def verdict(sent, got):
    """('exact' | what btvirt dropped | what disagrees, whether the counts disagree). btvirt drops what a receiving
    host does not read in time (sendmsg with MSG_DONTWAIT, no flow control), so a run that lost packets is
    reported, not failed, when what did arrive agrees with what was sent: every received packet 244 octets, no
    more packets than were sent, and the missing sequence numbers accounting for the loss. Exactness with
    nothing lost is BenchCommandPeerTests' (Bumble paced) and the simulated bench's (flow control)."""
    if (sent["packets"], sent["bytes"]) == (got["packets"], got["bytes"]) and not got["missing"] and sent.get("acknowledged"):
        return "exact", False
    problems = []
    if got["bytes"] != got["packets"] * SIZE:
        problems.append(f"received {got['packets']} packets but {got['bytes']} octets (not {SIZE} each)")
    if got["packets"] > sent["packets"] or got["packets"] + got["missing"] > sent["packets"]:
        problems.append(f"received {got['packets']} packets with {got['missing']} missing of {sent['packets']} sent")
    if sent["bytes"] != sent["packets"] * SIZE:
        problems.append(f"sent {sent['packets']} packets but {sent['bytes']} octets")
    if problems:
        return "; ".join(problems), True
    lost = sent["packets"] - got["packets"]
    return f"btvirt dropped {lost} of {sent['packets']} packets ({got['missing']} inside the stream){'' if sent.get('acknowledged') else ', the last among them: no ACK'}", False


def main():
    hil, packets, seconds, rounds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
    name = f"HIL-Speed-{os.getpid()}"
    bumble_send = ["--scenario", "send", "-s", str(SIZE), "-c", str(packets)]
    mtu = ["--att-mtu", "247"]
    hil_central = [hil, "bench", MONIKER, "--address", BUMBLE_PERIPHERAL, "--mtu", "247", "--json"]
    hil_peripheral = [hil, "bench", MONIKER, "--peripheral", "--advertise-name", name, "--wait", "30", "--json"]
    runs = [
        # (direction, label, ours' role or None, peripheral, central, sender is the peripheral)
        ("notify", "Bumble periph. -> Bumble central", None,
         ("bumble-send", BUMBLE + ["--mode", "gatt-server"] + bumble_send + ["peripheral", MONIKER]),
         ("bumble-receive", BUMBLE + ["--mode", "gatt-client", "--scenario", "receive"] + mtu + ["central", MONIKER]), True),
        ("notify", "Bumble periph. -> hil central", "receiver",
         ("bumble-send", BUMBLE + ["--mode", "gatt-server"] + bumble_send + ["peripheral", MONIKER]),
         ("hil", hil_central + ["--mode", "notify", "--seconds", "20"]), True),
        ("notify", "hil periph.    -> Bumble central", "sender",
         ("hil", hil_peripheral + ["--mode", "notify", "--seconds", str(seconds)]),
         ("bumble-receive", BUMBLE + ["--mode", "gatt-client", "--scenario", "receive"] + mtu + ["central", "--peripheral", name, MONIKER]), True),
        ("write", "Bumble central -> Bumble periph.", None,
         ("bumble-receive", BUMBLE + ["--mode", "gatt-server", "--scenario", "receive", "peripheral", MONIKER]),
         ("bumble-send", BUMBLE + ["--mode", "gatt-client"] + bumble_send + mtu + ["central", MONIKER]), False),
        ("write", "hil central    -> Bumble periph.", "sender",
         ("bumble-receive", BUMBLE + ["--mode", "gatt-server", "--scenario", "receive", "peripheral", MONIKER]),
         ("hil", hil_central + ["--mode", "write", "--seconds", str(seconds)]), False),
        ("write", "Bumble central -> hil periph.", "receiver",
         ("hil", hil_peripheral + ["--mode", "write", "--seconds", "20"]),
         ("bumble-send", BUMBLE + ["--mode", "gatt-client"] + bumble_send + mtu + ["central", "--peripheral", name, MONIKER]), False),
    ]
    print(f"hil bench beside Bumble's bench app on btvirt: ATT_MTU 247, 244-octet values; Bumble sends {packets} "
          f"packets, hil bench sends for {seconds:g} s; {rounds} rounds; rates in Mbit/s, each side timing itself; cpu: the side's "
          f"whole process (startup included) per MB it moved")
    failed = []
    btvirt = Btvirt()
    try:
        measure(runs, rounds, btvirt, failed)
    finally:
        btvirt.stop()
    if failed:
        sys.exit(f"bench-throughput: {len(failed)} of {len(runs) * rounds} runs failed or counted what was not sent: {', '.join(failed)}")


def measure(runs, rounds, btvirt, failed):
    """Runs every run once a round, `rounds` times; prints each run's line and then the ratios."""
    goodput = {index: {} for index in range(len(runs))}  # run -> round -> the receiver's goodput
    with tempfile.TemporaryDirectory() as work:
        for number in range(1, rounds + 1):
            for index, (direction, label, role, peripheral, central, sender_is_peripheral) in enumerate(runs):
                # A run during which another run restarted btvirt (its controllers went away) is run again, twice at most.
                for attempt in range(3):
                    pid = None
                    try:
                        with BtvirtLock():
                            pid = btvirt.ensure()
                            sent, got, notes = run(work, f"{number}.{index}.{attempt}", peripheral, central, sender_is_peripheral)
                        failure = None
                    except Failure as error:
                        failure = error
                    if btvirt.pid() == pid:
                        break
                    print(f"  {number} {direction:6s} {label}  (btvirt {pid} was stopped by another run during this one: run again)")
                if failure:
                    print(f"  {number} {direction:6s} {label}  FAILED: {failure}")
                    failed.append(f"{label} (round {number})")
                    continue
                outcome, disagrees = verdict(sent, got)
                if disagrees:
                    failed.append(f"{label} (round {number})")
                goodput[index][number] = got["bps"]
                print(f"  {number} {direction:6s} {label}  sent {sent['packets']:6d} pk {sent['bytes']:8d} oct @ {sent['bps'] / 1e6:6.3f} "
                      f"cpu {cpu_per_mb(sent)}  received {got['packets']:6d} pk {got['bytes']:8d} oct @ {got['bps'] / 1e6:6.3f} "
                      f"cpu {cpu_per_mb(got)}  {outcome}")
                for note in notes:
                    print(f"  {'':8s} note: {note}")
    print("Goodput (Mbit/s, median of the rounds) and ratios ours/Bumble against the same Bumble peer:")
    baselines = {direction: index for index, (direction, _, role, *_) in enumerate(runs) if role is None}
    for index, (direction, label, role, *_) in enumerate(runs):
        mine, base = goodput[index], goodput[baselines[direction]]
        line = f"  {direction:6s} {label}  {statistics.median(mine.values()) / 1e6 if mine else float('nan'):7.3f}"
        if role is not None and mine and base:
            ratio = statistics.median(mine.values()) / statistics.median(base.values())
            rounds = ", ".join(f"{number}: {mine[number] / base[number]:.2f}" for number in sorted(mine) if number in base)
            line += f"  ours as {role}: {ratio:.2f}x (round by round: {rounds or 'no round with both'})"
        print(line)


if __name__ == "__main__":
    main()
