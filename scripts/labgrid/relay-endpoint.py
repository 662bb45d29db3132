#!/usr/bin/env python3
"""A network power port for labgrid's NetworkPowerPort model `simplerest` that really switches a simulated
accessory: GET /relay/INDEX/1|0 turns it on or off through `hil sim power --control ADDRESS ACCESSORY on|off`,
GET /relay/INDEX reads it back ("1" on, "0" off). Listens on 127.0.0.1 only; prints READY PORT when serving.

Usage: relay-endpoint.py HIL CONTROL_ADDRESS INDEX=ACCESSORY [INDEX=ACCESSORY ...]
"""
import http.server
import subprocess
import sys


def main() -> int:
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 3
    hil, control = sys.argv[1], sys.argv[2]
    accessories = dict(pair.split("=", 1) for pair in sys.argv[3:])

    def sim_power(accessory: str, action: str) -> str:
        ran = subprocess.run([hil, "sim", "power", "--control", control, accessory, action],
                             capture_output=True, text=True, timeout=15)
        if ran.returncode != 0:
            raise RuntimeError((ran.stderr or ran.stdout).strip())
        return ran.stdout.strip()

    class Relay(http.server.BaseHTTPRequestHandler):
        def answer(self, status: int, body: str) -> None:
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            parts = self.path.strip("/").split("/")
            if len(parts) not in (2, 3) or parts[0] != "relay" or parts[1] not in accessories:
                self.answer(404, "no such relay\n")
                return
            accessory = accessories[parts[1]]
            try:
                if len(parts) == 3:
                    if parts[2] not in ("0", "1"):
                        self.answer(400, "value must be 0 or 1\n")
                        return
                    sim_power(accessory, "on" if parts[2] == "1" else "off")
                    self.answer(200, parts[2])
                else:
                    said = sim_power(accessory, "status")
                    self.answer(200, "1" if said.endswith(" on") else "0")
            except Exception as error:  # the switch failed: labgrid reports the HTTP error
                self.answer(500, f"{error}\n")

        do_PUT = do_GET

        def log_message(self, *arguments) -> None:
            sys.stderr.write("relay: " + (arguments[0] % arguments[1:]) + "\n")

    server = http.server.HTTPServer(("127.0.0.1", 0), Relay)
    print(f"READY {server.server_address[1]}", flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
