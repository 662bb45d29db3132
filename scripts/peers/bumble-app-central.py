#!/usr/bin/env python3
"""The phone app, played by Google's Bumble (PyPI `bumble`) for `hil accessory` tests: finds the accessory by
name, connects, exchanges the MTU, discovers its GATT database, reads what is readable and subscribes to what
notifies; then waits for the link to end, says with which reason and how long after connecting, scans for the
accessory again, reconnects and discovers again. Prints one JSON object:

    {"disconnect_reason": 19, "disconnect_after_ms": 1003.2, "reconnect_after_ms": 2051.0, ...}

    bumble-app-central.py unix:/tmp/bt-server-le --name HIL-HeartRate [--timeout 15] [--wait 30]

Exit status 0 when it reconnected, 1 when the link never ended or it could not reconnect, 2 when nothing was found.
"""
import argparse
import asyncio
import json
import sys
import time

from bumble import hci
from bumble.device import Device, Peer
from bumble.transport import open_transport

from bumble_scan import find


async def connect(device: Device, name: str, timeout: float):
    """Connects to the advertiser named `name`; returns the connection and when it formed."""
    advertisement = await find(device, name, timeout)
    connection = await asyncio.wait_for(
        device.connect(advertisement.address, own_address_type=hci.OwnAddressType.RANDOM), timeout)
    return connection, time.monotonic()


async def discover(connection, timeout: float):
    """Plays an app's first minute on a link: MTU, discovery, reads, subscriptions; returns the counts."""
    peer = Peer(connection)
    await asyncio.wait_for(peer.request_mtu(247), timeout)
    await asyncio.wait_for(peer.discover_services(), timeout)
    reads = subscriptions = 0
    for service in peer.services:
        await asyncio.wait_for(service.discover_characteristics(), timeout)
        for characteristic in service.characteristics:
            if characteristic.properties & 0x02:
                await asyncio.wait_for(characteristic.read_value(), timeout)
                reads += 1
            if characteristic.properties & 0x30 and subscriptions == 0:
                await asyncio.wait_for(characteristic.discover_descriptors(), timeout)
                await asyncio.wait_for(peer.subscribe(characteristic, lambda value: None), timeout)
                subscriptions += 1
    return {"services": len(peer.services), "reads": reads, "subscriptions": subscriptions}


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("transport")
    parser.add_argument("--name", required=True)
    parser.add_argument("--timeout", type=float, default=15.0, help="seconds to find, connect and discover")
    parser.add_argument("--wait", type=float, default=30.0, help="seconds to wait for the link to end")
    parser.add_argument("--address", default="C0:A1:B2:C3:D4:E5")
    args = parser.parse_args()
    result = {}
    async with await open_transport(args.transport) as transport:
        device = Device.with_hci("HIL-App", hci.Address(args.address), transport.source, transport.sink)
        await device.power_on()
        try:
            connection, connected = await connect(device, args.name, args.timeout)
            first = await discover(connection, args.timeout)
        except asyncio.TimeoutError:
            print(json.dumps({"error": f"could not find, connect to or discover {args.name} within {args.timeout} s"}))
            return 2
        result["first"] = first
        ended = asyncio.get_running_loop().create_future()
        connection.on("disconnection", lambda reason: ended.done() or ended.set_result((reason, time.monotonic())))
        try:
            reason, disconnected = await asyncio.wait_for(ended, args.wait)
        except asyncio.TimeoutError:
            print(json.dumps({**result, "error": f"the link did not end within {args.wait} s"}))
            return 1
        result["disconnect_reason"] = int(reason)
        result["disconnect_after_ms"] = round((disconnected - connected) * 1000, 1)
        try:
            again, reconnected = await connect(device, args.name, args.timeout)
        except asyncio.TimeoutError:
            print(json.dumps({**result, "error": f"could not reconnect to {args.name} within {args.timeout} s"}))
            return 1
        result["reconnect_after_ms"] = round((reconnected - disconnected) * 1000, 1)
        # The accessory may end the run (and the link) as soon as it sees the reconnection: discovery again is
        # best effort.
        try:
            result["again"] = await discover(again, 2.0)
        except Exception as error:  # the link ended under it
            result["again"] = {"error": type(error).__name__}
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
