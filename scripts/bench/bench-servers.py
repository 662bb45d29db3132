#!/usr/bin/env python3
"""The serving commands beside clients that misbehave, for scripts/bench/bench-servers (see its header).

Usage: bench-servers.py LABEL=HIL_BINARY [LABEL=HIL_BINARY ...]

For each binary, in this order, in the same run:
  hil sim serve, alone: a good client's latencies (N=10 each, median and max): a control request
      (`status`: connect, send, read its line), an H4 connection (connect, HCI Reset, its Command Complete),
      and `hil info unix:AIR` (N=3, the process's whole run); the server's VmRSS.
  hil sim serve, beside misbehaving clients (the same server, right after): 6 control clients that send
      500 `status` a second and never read, and 2 that flood 20 MB of empty lines each while reading every
      answer, each coming back when dropped; after 2 s of that, the same latencies again; then, once the
      flooders have sent their 20 MB (at most 60 s), the server's VmRSS and VmHWM.
  hil sim serve, 200 simultaneous H4 connections (a fresh server): how many are served (answer an HCI
      Reset within 2 s) and how many refused (closed at once).
  hil serve, one idle host: a host connects and sends nothing; how long until `hil info` through the server
      succeeds (tried every 0.5 s, at most 15 s). The binary's --idle-timeout is given as 2s when its
      --help names the option.
A measurement that does not finish counts as its limit and is marked '>'. Exit status 0 unless a server
does not start (1).
"""
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RIG = os.path.join(ROOT, "rigs", "simulated.json")
RESET = bytes([0x01, 0x03, 0x0C, 0x00])
RESET_COMPLETE = bytes([0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])


class Failure(Exception):
    pass


def rss(pid):
    """(VmRSS, VmHWM) in MB, from /proc."""
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0]) / 1024
    return values.get("VmRSS", 0.0), values.get("VmHWM", 0.0)


def start(command, ready_prefix, env=None):
    """Starts a server and waits (20 s) for its ready line on stdout; its stderr lines are kept."""
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    errors = []
    threading.Thread(target=lambda: errors.extend(line.decode(errors="replace").rstrip() for line in process.stderr), daemon=True).start()
    ready = []
    reader = threading.Thread(target=lambda: ready.append(process.stdout.readline().decode().rstrip()), daemon=True)
    reader.start()
    reader.join(20)
    if not ready or not ready[0].startswith(ready_prefix):
        process.kill()
        raise Failure(f"{' '.join(command[:3])} did not start: {ready} {errors[-3:]}")
    threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
    return process, errors


def stop(process):
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def timed(limit, body):
    """Seconds `body` took, or (limit, True) when it failed or did not finish within `limit`."""
    started = time.monotonic()
    try:
        ok = body(limit)
    except OSError:
        ok = False
    took = time.monotonic() - started
    return (took, False) if ok and took < limit else (max(took, limit), True)


def control_request(path):
    def body(limit):
        with socket.socket(socket.AF_UNIX) as client:
            client.settimeout(limit)
            client.connect(path)
            client.sendall(b"status\n")
            received = b""
            while b"\n" not in received:
                chunk = client.recv(4096)
                if not chunk:
                    return False
                received += chunk
            return received.startswith(b"ok ")
    return body


def h4_reset(path):
    def body(limit):
        with socket.socket(socket.AF_UNIX) as client:
            client.settimeout(limit)
            client.connect(path)
            client.sendall(RESET)
            received = b""
            while len(received) < len(RESET_COMPLETE):
                chunk = client.recv(64)
                if not chunk:
                    return False
                received += chunk
            return received == RESET_COMPLETE
    return body


def hil_info(binary, moniker, env=None):
    def body(limit):
        try:
            return subprocess.run([binary, "info", moniker], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  timeout=limit, env=env, cwd=ROOT).returncode == 0
        except subprocess.TimeoutExpired:
            return False
    return body


def sample(count, limit, body):
    """Median and max of `count` timings, each marked when it hit its limit."""
    results = [timed(limit, body) for _ in range(count)]
    times = [took for took, _ in results]
    return statistics.median(times), max(times), any(hit for _, hit in results)


def latencies(binary, air, control):
    return {
        "control": sample(10, 10, control_request(control)),
        "h4": sample(10, 10, h4_reset(air)),
        "info": sample(3, 30, hil_info(binary, f"unix:{air}")),
    }


class Misbehaving:
    """6 never-readers and 2 reading flooders on the control socket. Each comes back when it is dropped, as a
    hostile client would: the never-readers until `stop()`, the flooders until each has sent 20 MB."""

    FLOOD = 20 * 1024 * 1024

    def __init__(self, control):
        self.control = control
        self.stopping = threading.Event()
        self.never_readers = [threading.Thread(target=self.never_reader, daemon=True) for _ in range(6)]
        self.flooders = [threading.Thread(target=self.flooder, daemon=True) for _ in range(2)]
        self.connections = 0
        self.lock = threading.Lock()

    def start(self):
        for thread in self.never_readers + self.flooders:
            thread.start()

    def connect(self):
        client = socket.socket(socket.AF_UNIX)
        client.connect(self.control)
        with self.lock:
            self.connections += 1
        return client

    def never_reader(self):
        while not self.stopping.is_set():
            try:
                with self.connect() as client:
                    client.settimeout(0.5)
                    while not self.stopping.is_set():
                        client.sendall(b"status\n" * 5)
                        time.sleep(0.01)
            except OSError:
                time.sleep(0.01)  # dropped (or its send stalled): it comes back

    def flooder(self):
        sent = 0
        chunk = b"\n" * 65536
        while sent < self.FLOOD and not self.stopping.is_set():
            try:
                with self.connect() as client:
                    client.settimeout(10)
                    threading.Thread(target=self.drain, args=(client,), daemon=True).start()
                    while sent < self.FLOOD:
                        client.sendall(chunk)
                        sent += len(chunk)
            except OSError:
                time.sleep(0.01)

    @staticmethod
    def drain(client):
        try:
            while client.recv(1 << 16):
                pass
        except OSError:
            pass

    def wait_for_flooders(self, limit):
        deadline = time.monotonic() + limit
        for thread in self.flooders:
            thread.join(max(0, deadline - time.monotonic()))

    def stop(self):
        self.stopping.set()
        for thread in self.never_readers + self.flooders:
            thread.join(10)


def sim_serve(binary, work):
    air, control = os.path.join(work, "air"), os.path.join(work, "ctl")
    process, errors = start([binary, "sim", "serve", "--rig", RIG, "--listen", f"unix:{air}", "--control", f"unix:{control}"], "serving ")
    try:
        alone = latencies(binary, air, control)
        alone_rss = rss(process.pid)
        clients = Misbehaving(control)
        clients.start()
        time.sleep(2)
        beside = latencies(binary, air, control)
        clients.wait_for_flooders(60)
        beside_rss = rss(process.pid)
        clients.stop()
        dropped = sum(1 for line in errors if ": dropped: " in line)
        connections = clients.connections
    finally:
        stop(process)
    return alone, alone_rss, beside, beside_rss, dropped, connections


def two_hundred(binary, work):
    air = os.path.join(work, "air2")
    process, errors = start([binary, "sim", "serve", "--rig", RIG, "--listen", f"unix:{air}"], "serving ")
    clients = []
    lock = threading.Lock()
    try:
        def connect():
            for _ in range(25):
                client = socket.socket(socket.AF_UNIX)
                try:
                    client.connect(air)  # blocking: waits while the listen backlog is full
                except OSError:
                    client.close()
                    continue
                with lock:
                    clients.append(client)
        threads = [threading.Thread(target=connect) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        time.sleep(1)
        served = refused = 0
        for client in clients:
            try:
                client.settimeout(2)
                client.sendall(RESET)
                received = b""
                while len(received) < len(RESET_COMPLETE):
                    chunk = client.recv(64)
                    if not chunk:
                        break
                    received += chunk
                if received == RESET_COMPLETE:
                    served += 1
                else:
                    refused += 1
            except OSError:
                refused += 1
        peak = rss(process.pid)
        logged = sum(1 for line in errors if "refused" in line)
    finally:
        for client in clients:
            client.close()
        stop(process)
    return len(clients), served, refused, logged, peak


def idle_holder(binary, work):
    served = os.path.join(work, "served")
    env = dict(os.environ, HIL_LOCK_DIR=os.path.join(work, "locks"))
    helped = subprocess.run([binary, "serve", "--help"], capture_output=True, text=True, cwd=ROOT).stdout
    extra = ["--idle-timeout", "2s"] if "--idle-timeout" in helped else []
    process, _ = start([binary, "serve", "sim:central", "--rig", RIG, "--listen", f"unix:{served}"] + extra, "serving ", env=env)
    try:
        holder = socket.socket(socket.AF_UNIX)
        holder.connect(served)
        started = time.monotonic()
        took = None
        while time.monotonic() - started < 15:
            if hil_info(binary, f"unix:{served}", env)(10):
                took = time.monotonic() - started
                break
            time.sleep(0.5)
        holder.close()
    finally:
        stop(process)
    return extra, took


def milliseconds(value):
    median, top, hit = value
    return f"{median * 1000:8.1f} / {'>' if hit else ' '}{top * 1000:7.1f} ms"


def main():
    targets = [argument.split("=", 1) for argument in sys.argv[1:]]
    if not targets or any(len(target) != 2 for target in targets):
        print(__doc__.splitlines()[2], file=sys.stderr)
        return 3
    for label, binary in targets:
        with tempfile.TemporaryDirectory(prefix="hil-bench-", dir="/tmp") as work:
            try:
                alone, alone_rss, beside, beside_rss, dropped, connections = sim_serve(binary, work)
                connected, served, refused, logged, peak = two_hundred(binary, work)
                extra, took = idle_holder(binary, work)
            except Failure as failure:
                print(f"bench-servers: {label}: {failure}", file=sys.stderr)
                return 1
        print(f"== {label}: {binary}")
        print("hil sim serve                      alone (median / max)        beside 6 never-readers + 2 flooders    beside/alone (median)")
        for key, name in (("control", "control request (status)"), ("h4", "H4 connect + HCI Reset"), ("info", "hil info unix:AIR")):
            ratio = beside[key][0] / alone[key][0] if alone[key][0] > 0 else float("nan")
            print(f"  {name:30} {milliseconds(alone[key])}       {milliseconds(beside[key])}            {ratio:8.1f}x")
        print(f"  server VmRSS                     {alone_rss[0]:8.1f} MB                  {beside_rss[0]:8.1f} MB (VmHWM {beside_rss[1]:.1f} MB)"
              f"          {beside_rss[0] / alone_rss[0]:8.1f}x")
        print(f"  misbehaving connections: {connections}; dropped with a line: {dropped}")
        print(f"  200 simultaneous H4 connections: {connected} connected, {served} served, {refused} refused "
              f"({logged} refusal lines); VmRSS {peak[0]:.1f} MB, VmHWM {peak[1]:.1f} MB")
        shown = " ".join(extra) if extra else "no --idle-timeout"
        print(f"hil serve ({shown}), one idle host holding it: the next host served after "
              + (f"{took:.1f} s" if took is not None else "> 15 s (never, within the bench)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
