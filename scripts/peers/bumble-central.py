#!/usr/bin/env python3
"""A BLE central played by Google's Bumble (PyPI `bumble`): finds an advertiser by name, connects,
discovers its GATT database, reads every readable characteristic and prints the result as JSON.
Exit status 0 on success, 1 when the accessory misbehaves, 2 when nothing is found in time.

    bumble-central.py unix:/tmp/bt-server-le --name HIL-Accessory [--timeout 10] [--repeat N]
"""
import argparse
import asyncio
import json
import sys
import time

from bumble import hci
from bumble.device import Device
from bumble.transport import open_transport

from bumble_scan import find


async def discover(device: Device, advertisement, timeout: float):
    started = time.monotonic()
    connection = await asyncio.wait_for(
        device.connect(advertisement.address, own_address_type=hci.OwnAddressType.RANDOM), timeout)
    connected = time.monotonic()
    await asyncio.wait_for(connection.gatt_client.request_mtu(247), timeout) if hasattr(connection, "gatt_client") else None
    peer = connection.gatt_client if hasattr(connection, "gatt_client") else None
    from bumble.device import Peer
    peer = Peer(connection)
    await asyncio.wait_for(peer.discover_services(), timeout)
    tree = []
    for service in peer.services:
        await asyncio.wait_for(service.discover_characteristics(), timeout)
        entry = {"uuid": str(service.uuid), "characteristics": []}
        for characteristic in service.characteristics:
            item = {"uuid": str(characteristic.uuid), "properties": int(characteristic.properties)}
            if characteristic.properties & 0x02:
                value = await asyncio.wait_for(characteristic.read_value(), timeout)
                item["value"] = bytes(value).hex()
            entry["characteristics"].append(item)
        tree.append(entry)
    discovered = time.monotonic()
    await connection.disconnect()
    return {"connect_ms": round((connected - started) * 1000, 3),
            "discovery_ms": round((discovered - connected) * 1000, 3), "services": tree}


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("transport")
    parser.add_argument("--name", required=True)
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--address", default="C0:C1:C2:C3:C4:C5")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    async with await open_transport(args.transport) as transport:
        device = Device.with_hci("HIL-Bumble-Central", hci.Address(args.address), transport.source, transport.sink)
        await device.power_on()
        results = []
        for _ in range(args.repeat):
            try:
                advertisement = await find(device, args.name, args.timeout)
            except asyncio.TimeoutError:
                print(json.dumps({"error": f"no advertiser named {args.name} within {args.timeout} s"}))
                return 2
            try:
                results.append(await discover(device, advertisement, args.timeout))
            except asyncio.TimeoutError:
                print(json.dumps({"error": f"connection or discovery of {args.name} did not finish within {args.timeout} s"}))
                return 1
        print(json.dumps(results if args.repeat > 1 else results[0]))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
