#!/usr/bin/env python3
"""A BLE accessory played by Google's Bumble (PyPI `bumble`), an independent host stack.

Attaches to a controller (btvirt's Unix socket, Rootcanal's TCP port, ...), serves a GATT database
(Battery, Device Information, Heart Rate) and advertises a name until killed. Prints one line
`READY <address>` on stdout once advertising, so a test knows when to start.

With --att-log FILE it counts the ATT PDUs each connection's central sends it (by PDU name) and appends
them to FILE as one JSON object per connection when the connection ends: scripts/bench/bench-gatt uses it to
check, from the accessory's side, that two centrals did the same work.

    bumble-accessory.py unix:/tmp/bt-server-le --name HIL-Bumble --address F0:F1:F2:F3:F4:F5 [--att-log FILE]
"""
import argparse
import asyncio
import json
import sys

from bumble import hci
from bumble.device import Device
from bumble.profiles.battery_service import BatteryService
from bumble.profiles.device_information_service import DeviceInformationService
from bumble.profiles.heart_rate_service import HeartRateService
from bumble.transport import open_transport
from bumble_lifecycle import advertise, close_quietly, run_until_stopped


def count_att_pdus(device: Device, path: str) -> None:
    """Counts the ATT PDUs that reach the GATT server, per bearer, and appends each connection's counts to
    `path` when it ends."""
    counts = {}
    server = device.gatt_server
    forward = server.on_gatt_pdu

    def on_gatt_pdu(bearer, att_pdu):
        per_bearer = counts.setdefault(id(bearer), {})
        per_bearer[att_pdu.name] = per_bearer.get(att_pdu.name, 0) + 1
        forward(bearer, att_pdu)

    server.on_gatt_pdu = on_gatt_pdu

    def on_connection(connection):
        def on_disconnection(_reason):
            with open(path, "a") as log:
                log.write(json.dumps(counts.pop(id(connection), {}), sort_keys=True) + "\n")
        connection.on("disconnection", on_disconnection)

    device.on("connection", on_connection)


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("transport")
    parser.add_argument("--name", default="HIL-Bumble")
    parser.add_argument("--address", default="F0:F1:F2:F3:F4:F5")
    parser.add_argument("--battery", type=int, default=87)
    parser.add_argument("--interval", type=float, default=50.0, help="advertising interval in ms")
    parser.add_argument("--att-log", help="append each connection's count of received ATT PDUs (JSON) to this file")
    args = parser.parse_args()

    transport = await open_transport(args.transport)
    try:
        device = Device.with_hci(args.name, hci.Address(args.address), transport.source, transport.sink)
        device.add_services([
            BatteryService(lambda _connection: args.battery),
            DeviceInformationService(manufacturer_name="Bumble", model_number="HIL-1", serial_number="0001",
                                     firmware_revision="1.0.0"),
            HeartRateService(
                read_heart_rate_measurement=lambda _connection: HeartRateService.HeartRateMeasurement(72),
                body_sensor_location=HeartRateService.BodySensorLocation.WRIST,
            ),
        ])
        if args.att_log:
            count_att_pdus(device, args.att_log)
        await device.power_on()
        await advertise(device, args.name, args.interval)
        print(f"READY {device.random_address}", flush=True)
        await run_until_stopped()
    finally:
        await close_quietly(transport)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
