"""The checks behind scripts/peers/test-bumble-secure-peers: bumble-secure-central.py against
bumble-secure-accessory.py on one transport (btvirt by default). Run through that script, which starts
and stops btvirt."""
import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = sys.executable
SECRET_HEX = b"secret-42".hex()
ACCESSORY_ADDRESS = "F2:F1:F2:F3:F4:F5"
CENTRAL_ADDRESS = "D0:D1:D2:D3:D4:D5"


class Accessory:
    """bumble-secure-accessory.py in its own process group; its stdout lines as they come."""

    def __init__(self, transport: str, name: str, *options: str):
        self.lines: list[str] = []
        self.changed = threading.Condition()
        self.process = subprocess.Popen(
            [PYTHON, os.path.join(HERE, "bumble-secure-accessory.py"), transport, "--name", name,
             "--address", ACCESSORY_ADDRESS, *options],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        self.stderr: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.process.stderr), daemon=True).start()
        if self.wait_for("READY", 10) is None:
            self.stop()
            raise RuntimeError(f"accessory not READY: {self.lines} {''.join(self.stderr)[-2000:]}")

    def _read(self) -> None:
        for line in self.process.stdout:
            with self.changed:
                self.lines.append(line.rstrip("\n"))
                self.changed.notify_all()

    def wait_for(self, prefix: str, timeout: float, after: int = 0) -> str | None:
        """The first line from index `after` on that starts with `prefix`."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for line in self.lines[after:]:
                    if line.startswith(prefix):
                        return line
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    return None
                self.changed.wait(left)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(3)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def central(transport: str, name: str, *options: str, timeout: float = 10) -> tuple[int, dict]:
    done = subprocess.run([PYTHON, os.path.join(HERE, "bumble-secure-central.py"), transport, "--name", name,
                           "--address", CENTRAL_ADDRESS, "--timeout", str(timeout), *options],
                          capture_output=True, text=True, timeout=timeout + 10)
    lines = done.stdout.strip().splitlines()
    try:
        return done.returncode, json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        return done.returncode, {"error": f"no JSON: {done.stdout!r} {done.stderr[-2000:]!r}"}


class Checks:
    def __init__(self):
        self.failed = 0

    def check(self, label: str, ok: bool, details) -> None:
        if not ok:
            self.failed += 1
        print(f"{'PASS' if ok else 'FAIL'} {label}: {details}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--transport", default="unix:/tmp/bt-server-le")
    parser.add_argument("--repeat", type=int, default=10, help="pairings/re-encryptions timed per method")
    args = parser.parse_args()
    t = args.transport
    checks = Checks()
    tmp = tempfile.mkdtemp(prefix="bumble-secure-")
    name = f"HIL-Sec-{os.getpid() % 10000}"

    def fresh(label: str) -> tuple[str, str]:
        return os.path.join(tmp, f"{label}-accessory.json"), os.path.join(tmp, f"{label}-central.json")

    # --- Every method, Secure Connections and legacy -------------------------------------------------
    cases = [
        ("just-works SC", ["--method", "just-works"], ["--method", "just-works", "--read-first"], "JUST_WORKS", True),
        ("just-works legacy", ["--method", "just-works", "--legacy"], ["--method", "just-works", "--legacy"],
         "JUST_WORKS", False),
        ("passkey SC", ["--method", "passkey", "--passkey", "123456"], ["--method", "passkey", "--passkey", "123456"],
         "PASSKEY", True),
        ("passkey legacy", ["--method", "passkey", "--passkey", "000042", "--legacy"],
         ["--method", "passkey", "--passkey", "42", "--legacy"], "PASSKEY", False),
        ("numeric-comparison SC", ["--method", "numeric-comparison"], ["--method", "numeric-comparison"],
         "NUMERIC_COMPARISON", True),
        ("numeric-comparison legacy (spec: Just Works)", ["--method", "numeric-comparison", "--legacy"],
         ["--method", "numeric-comparison", "--legacy"], "JUST_WORKS", False),
    ]
    for label, accessory_options, central_options, method, sc in cases:
        accessory = Accessory(t, name, *accessory_options)
        try:
            status, result = central(t, name, *central_options)
            paired = accessory.wait_for("PAIRED", 2)
            ok = (status == 0 and result.get("method") == method and result.get("sc") is sc
                  and result.get("value") == SECRET_HEX and paired is not None
                  and paired.split()[2:4] == [method, "sc" if sc else "legacy"])
            if "--read-first" in central_options:
                ok = ok and result.get("unencrypted_read") == "INSUFFICIENT_ENCRYPTION"
            if method == "PASSKEY":
                shown = accessory.wait_for("PASSKEY", 0)
                ok = ok and shown is not None and int(shown.split()[1]) == int(result.get("passkey", -1))
            if method == "NUMERIC_COMPARISON":
                shown = accessory.wait_for("NUMBER", 0)
                ok = ok and shown is not None and shown.split()[1] == result.get("number")
            ok = ok and result.get("authenticated") is (method != "JUST_WORKS")
            checks.check(label, ok, f"exit {status} {json.dumps(result)} | accessory: {accessory.lines[1:]}")
        finally:
            accessory.stop()

    # --- OOB ---------------------------------------------------------------------------------------
    accessory = Accessory(t, name, "--method", "oob")
    try:
        _, c, r = accessory.wait_for("OOB ", 0).split()
        status, result = central(t, name, "--method", "oob", "--oob-c", c, "--oob-r", r)
        checks.check("oob SC", status == 0 and result.get("method") == "OOB" and result.get("sc") is True,
                     f"exit {status} {json.dumps(result)} | accessory: {accessory.lines}")
        status, result = central(t, name, "--method", "oob", "--oob-c", c, "--oob-r", "00" * 16, "--force-pair")
        checks.check("oob SC, wrong random value fails", status == 1 and result.get("paired") is False,
                     f"exit {status} {result.get('error')} | accessory: {accessory.lines[-3:]}")
    finally:
        accessory.stop()
    accessory = Accessory(t, name, "--method", "oob", "--legacy")
    try:
        tk = accessory.wait_for("OOB-TK", 0).split()[1]
        status, result = central(t, name, "--method", "oob", "--legacy", "--oob-tk", tk)
        checks.check("oob legacy", status == 0 and result.get("method") == "OOB" and result.get("sc") is False,
                     f"exit {status} {json.dumps(result)} | accessory: {accessory.lines}")
    finally:
        accessory.stop()

    # --- Failures --------------------------------------------------------------------------------
    for label, legacy in (("wrong passkey SC", []), ("wrong passkey legacy", ["--legacy"])):
        accessory = Accessory(t, name, "--method", "passkey", "--passkey", "123456", *legacy)
        try:
            status, result = central(t, name, "--method", "passkey", "--passkey", "654321", *legacy)
            failed = accessory.wait_for("PAIRING-FAILED", 2)
            checks.check(label, status == 1 and result.get("paired") is False and failed is not None,
                         f"exit {status} central error: {result.get('error')} | accessory: {failed}")
        finally:
            accessory.stop()
    accessory = Accessory(t, name, "--method", "numeric-comparison", "--reject")
    try:
        status, result = central(t, name, "--method", "numeric-comparison")
        failed = accessory.wait_for("PAIRING-FAILED", 2)
        checks.check("numeric comparison refused by the accessory", status == 1 and failed is not None,
                     f"exit {status} central error: {result.get('error')} | accessory: {failed}")
    finally:
        accessory.stop()

    # --- --mitm --------------------------------------------------------------------------------------
    accessory = Accessory(t, name, "--method", "just-works", "--mitm")
    try:
        status, result = central(t, name, "--method", "just-works")
        checks.check("--mitm refuses a Just Works key", status == 1 and result.get("encrypted") is True
                     and result.get("error") == "read failed: INSUFFICIENT_AUTHENTICATION",
                     f"exit {status} {json.dumps(result)}")
    finally:
        accessory.stop()
    accessory = Accessory(t, name, "--method", "passkey", "--passkey", "111111", "--mitm")
    try:
        status, result = central(t, name, "--method", "passkey", "--passkey", "111111")
        checks.check("--mitm accepts a passkey key", status == 0 and result.get("value") == SECRET_HEX,
                     f"exit {status} {json.dumps(result)}")
    finally:
        accessory.stop()

    # --- Bonds -------------------------------------------------------------------------------------
    for label, legacy in (("SC", []), ("legacy", ["--legacy"])):
        accessory_keys, central_keys = fresh(f"bond-{label}")
        accessory = Accessory(t, name, "--method", "passkey", "--passkey", "123456", "--keystore", accessory_keys,
                              *legacy)
        try:
            status, first = central(t, name, "--method", "passkey", "--passkey", "123456", "--keystore",
                                    central_keys, *legacy)
            seen = len(accessory.lines)
            status2, second = central(t, name, "--method", "passkey", "--passkey", "123456", "--keystore",
                                      central_keys, *legacy)
            checks.check(f"bonded reconnect after a central restart ({label})",
                         status == 0 and status2 == 0 and second.get("bonded_reconnect") is True
                         and second.get("paired") is False and second.get("value") == SECRET_HEX
                         and second.get("authenticated") is True
                         and accessory.wait_for("PAIRED", 0, after=seen) is None,
                         f"pairing {first.get('pairing_ms')} ms, then encrypt {second.get('encrypt_ms')} ms "
                         f"| accessory: {accessory.lines[seen:]}")
        finally:
            accessory.stop()
        accessory = Accessory(t, name, "--method", "passkey", "--passkey", "123456", "--keystore", accessory_keys,
                              *legacy)
        try:
            status, result = central(t, name, "--method", "passkey", "--passkey", "123456", "--keystore",
                                     central_keys, *legacy)
            checks.check(f"bonded reconnect after an accessory restart with its key store ({label})",
                         status == 0 and result.get("bonded_reconnect") is True and result.get("value") == SECRET_HEX,
                         f"encrypt {result.get('encrypt_ms')} ms | accessory: {accessory.lines[1:]}")
        finally:
            accessory.stop()
        empty = os.path.join(tmp, f"empty-{label}.json")
        accessory = Accessory(t, name, "--method", "passkey", "--passkey", "123456", "--keystore", empty, *legacy)
        try:
            status, result = central(t, name, "--method", "passkey", "--passkey", "123456", "--keystore",
                                     central_keys, *legacy)
            missing = accessory.wait_for("KEY-MISSING", 2)
            # The peripheral's host sends LTK Request Negative Reply; btvirt 5.66 then gives the central
            # Encryption Change status 0x06 (PIN or Key Missing, as the spec says), Rootcanal 1.10 0x05
            # (Authentication Failure).
            expected = ("PIN_OR_KEY_MISSING",) if t.startswith("unix:") else ("PIN_OR_KEY_MISSING", "AUTHENTICATION_FAILURE")
            checks.check(f"accessory restarted with an empty key store: encryption fails ({label})",
                         status == 1 and any(e in (result.get("error") or "") for e in expected) and missing is not None,
                         f"central error: {result.get('error')} | accessory: {accessory.lines[1:]}")
        finally:
            accessory.stop()

    accessory_keys, central_keys = fresh("no-bonding")
    accessory = Accessory(t, name, "--method", "just-works", "--no-bonding", "--keystore", accessory_keys)
    try:
        status, first = central(t, name, "--method", "just-works", "--keystore", central_keys)
        status2, second = central(t, name, "--method", "just-works", "--keystore", central_keys)
        with open(accessory_keys) as file:
            stored = json.load(file).get(ACCESSORY_ADDRESS, {})
        checks.check("--no-bonding: no keys kept, the next connection pairs again",
                     status == 0 and first.get("bonded") is False and status2 == 0 and second.get("paired") is True
                     and not stored and accessory.wait_for("PAIRED", 0).endswith("not-bonded"),
                     f"accessory keys {stored} | accessory: {accessory.lines[1:4]}")
    finally:
        accessory.stop()

    accessory = Accessory(t, name, "--method", "just-works", "--security-request")
    try:
        status, result = central(t, name, "--method", "just-works")
        checks.check("--security-request", status == 0, f"exit {status} {json.dumps(result)}")
    finally:
        accessory.stop()

    # --- Timing --------------------------------------------------------------------------------------
    print(f"\ntiming over {args.repeat} runs each (central process restarted per run; ms: median [min..max])")
    methods = [
        ("just-works SC", ["--method", "just-works"], ["--method", "just-works"]),
        ("just-works legacy", ["--method", "just-works", "--legacy"], ["--method", "just-works", "--legacy"]),
        ("passkey SC", ["--method", "passkey", "--passkey", "123456"], ["--method", "passkey", "--passkey", "123456"]),
        ("passkey legacy", ["--method", "passkey", "--passkey", "123456", "--legacy"],
         ["--method", "passkey", "--passkey", "123456", "--legacy"]),
        ("numeric-comparison SC", ["--method", "numeric-comparison"], ["--method", "numeric-comparison"]),
    ]
    for label, accessory_options, central_options in methods:
        accessory_keys, central_keys = fresh(f"timing-{label.replace(' ', '-')}")
        accessory = Accessory(t, name, *accessory_options, "--keystore", accessory_keys)
        try:
            pairing, encrypting = [], []
            for _ in range(args.repeat):
                _, result = central(t, name, *central_options, "--force-pair", "--keystore", central_keys)
                if result.get("pairing_ms") is not None:
                    pairing.append(result["pairing_ms"])
            for _ in range(args.repeat):
                _, result = central(t, name, *central_options, "--keystore", central_keys)
                if result.get("encrypt_ms") is not None:
                    encrypting.append(result["encrypt_ms"])

            def summary(values):
                if not values:
                    return "none"
                return f"{statistics.median(values):7.2f} [{min(values):.2f}..{max(values):.2f}] n={len(values)}"

            print(f"  {label:24s} pairing {summary(pairing)}   bonded re-encryption {summary(encrypting)}", flush=True)
            checks.check(f"timing {label}", len(pairing) == args.repeat and len(encrypting) == args.repeat,
                         f"{len(pairing)} pairings, {len(encrypting)} re-encryptions")
        finally:
            accessory.stop()

    shutil.rmtree(tmp, ignore_errors=True)
    print(f"\n{'all passed' if not checks.failed else f'{checks.failed} FAILED'}")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
