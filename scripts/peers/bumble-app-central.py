#!/usr/bin/env python3
"""The phone app, played by Google's Bumble (PyPI `bumble`) for `hil accessory` tests: finds the accessory by
name, connects, exchanges the MTU, discovers its GATT database, reads what is readable and subscribes to what
notifies; then waits for the link to end, says with which reason and how long after connecting, scans for the
accessory again, reconnects and discovers again. Prints one JSON object:

    {"disconnect_reason": 19, "disconnect_after_ms": 1003.2, "reconnect_after_ms": 2051.0, ...}

    bumble-app-central.py unix:/tmp/bt-server-le --name HIL-HeartRate [--timeout 15] [--wait 30]
        [--service-changed rediscover|ignore]

With --service-changed, the app instead subscribes to Service Changed (0x2A05) and waits for its indication;
`rediscover` discovers the primary services again (as an app that honours Service Changed does), `ignore` does
not. Then it waits for the accessory to end the link. It prints the indicated range, when it came, and the
services it found before and after:

    {"service_changed": [15, 65535], "service_changed_after_ms": 1002.5, "services_before": [...], "services_after": [...]}

With --under-load, the app subscribes to Heart Rate Measurement (2A37) and counts what the accessory floods it
with; once the flood stops (0.5 s without one) it reads Body Sensor Location (2A38) and waits for the connection
parameter update the accessory may ask for then (Bumble's central accepts and updates the connection):

    {"notifications": 412, "flood_ms": 1996.1, "parameters": {"interval_ms": 30.0, "latency": 0, "supervision_timeout_ms": 4000.0}, ...}

With --collect UUID, the app subscribes to notifications of that characteristic and prints every value it gets,
as hex, until the link ends (or --wait):

    {"values": ["aa6400", "aa6700", ...], "disconnect_reason": 19}

With --phy-2m, the app asks for LE 2M both ways once it has discovered (LE Set PHY) and prints what its
controller reported back: {"phy": {"tx": 2, "rx": 2}, ...}.

With --addresses SECONDS, the app only scans, that long, and prints each address the accessory advertised from,
in the order first seen, with its type:

    {"addresses": [["5A:12:...", "random"], ["71:0C:...", "random"]], "scan_ms": 2001.3, "first_heard_ms": 12.5, "last_heard_ms": 1990.2}

It scans actively (each advertisement it hears gets a scan request), or with --passive passively; it scans with
its random address, --address.

Exit status 0 when it reconnected (or, with --service-changed, was told of the change), 1 when the link never
ended, it could not reconnect or no Service Changed came, 2 when nothing was found.
"""
import argparse
import asyncio
import json
import sys
import time

from bumble import hci
from bumble.core import UUID
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
    return (await discover_peer(connection, timeout))[1]


async def discover_peer(connection, timeout: float):
    """`discover`, returning the Bumble peer (with what it discovered) and the counts."""
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
    return peer, {"services": len(peer.services), "reads": reads, "subscriptions": subscriptions}


async def service_changed(connection, peer, mode: str, timeout: float, wait: float, connected: float) -> tuple[dict, int]:
    """Subscribes to Service Changed, waits for its indication, re-discovers (mode `rediscover`) or not
    (`ignore`), then waits for the accessory to end the link; returns the result and the exit status."""
    result = {"services_before": sorted(str(service.uuid) for service in peer.services)}
    ended = asyncio.get_running_loop().create_future()
    connection.on("disconnection", lambda reason: ended.done() or ended.set_result(reason))
    changed = asyncio.get_running_loop().create_future()
    characteristic = next((c for service in peer.services for c in service.characteristics if c.uuid == UUID.from_16_bits(0x2A05)), None)
    if characteristic is None:
        return {**result, "error": "the accessory has no Service Changed characteristic"}, 1
    await asyncio.wait_for(characteristic.discover_descriptors(), timeout)
    await asyncio.wait_for(peer.subscribe(characteristic, lambda value: changed.done() or changed.set_result((bytes(value), time.monotonic())),
                                          prefer_notify=False), timeout)
    try:
        value, when = await asyncio.wait_for(changed, wait)
    except asyncio.TimeoutError:
        return {**result, "error": f"no Service Changed indication within {wait} s"}, 1
    result["service_changed"] = [int.from_bytes(value[0:2], "little"), int.from_bytes(value[2:4], "little")]
    result["service_changed_after_ms"] = round((when - connected) * 1000, 1)
    if mode == "rediscover":
        try:
            services = await asyncio.wait_for(peer.discover_services(), timeout)
            result["services_after"] = sorted(str(service.uuid) for service in services)
        except (Exception, asyncio.CancelledError) as error:  # the link ended under it (Bumble cancels its requests)
            result["services_after_error"] = f"{type(error).__name__}: {error}"
    # The accessory ends its run once its expectation is decided; whether its host then ends the link is its own.
    try:
        result["disconnect_reason"] = int(await asyncio.wait_for(ended, wait))
    except asyncio.TimeoutError:
        result["link_still_up_after_s"] = wait
    return result, 0


def characteristic_of(peer, uuid16: int):
    """The discovered characteristic with this 16-bit UUID, or None."""
    wanted = UUID.from_16_bits(uuid16)
    return next((c for service in peer.services for c in service.characteristics if c.uuid == wanted), None)


async def under_load(connection, peer, timeout: float, wait: float) -> tuple[dict, int]:
    """Counts the notification flood of 2A37, reads 2A38 when it stops, records the connection parameter update
    that follows (if any), then waits for the accessory to end the link; returns the result and the exit status."""
    loop = asyncio.get_running_loop()
    ended = loop.create_future()
    connection.on("disconnection", lambda reason: ended.done() or ended.set_result(reason))
    measurement, location = characteristic_of(peer, 0x2A37), characteristic_of(peer, 0x2A38)
    if measurement is None or location is None:
        return {"error": "the accessory has no Heart Rate Measurement and Body Sensor Location"}, 1
    times = []
    await asyncio.wait_for(measurement.discover_descriptors(), timeout)
    await asyncio.wait_for(peer.subscribe(measurement, lambda value: times.append(time.monotonic())), timeout)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and not (times and time.monotonic() - times[-1] > 0.5):
        await asyncio.sleep(0.05)
    result = {"notifications": len(times), "flood_ms": round((times[-1] - times[0]) * 1000, 1) if len(times) > 1 else 0.0}
    updated = loop.create_future()
    connection.on("connection_parameters_update", lambda: updated.done() or updated.set_result(time.monotonic()))
    read_at = time.monotonic()
    await asyncio.wait_for(location.read_value(), timeout)
    try:
        when = await asyncio.wait_for(updated, timeout)
        parameters = connection.parameters
        result["parameters"] = {"interval_ms": parameters.connection_interval, "latency": parameters.peripheral_latency,
                                "supervision_timeout_ms": parameters.supervision_timeout}
        result["parameters_after_read_ms"] = round((when - read_at) * 1000, 1)
    except asyncio.TimeoutError:
        result["parameters"] = None
    try:
        result["disconnect_reason"] = int(await asyncio.wait_for(ended, wait))
    except asyncio.TimeoutError:
        result["link_still_up_after_s"] = wait
    return result, 0


async def collect(connection, peer, uuid: str, timeout: float, wait: float) -> tuple[dict, int]:
    """Subscribes to notifications of `uuid` and collects the values until the link ends or `wait` passes."""
    ended = asyncio.get_running_loop().create_future()
    connection.on("disconnection", lambda reason: ended.done() or ended.set_result(reason))
    wanted = UUID(uuid)
    characteristic = next((c for service in peer.services for c in service.characteristics if c.uuid == wanted), None)
    if characteristic is None:
        return {"error": f"the accessory has no characteristic {uuid}"}, 1
    values = []
    await asyncio.wait_for(characteristic.discover_descriptors(), timeout)
    await asyncio.wait_for(peer.subscribe(characteristic, lambda value: values.append(bytes(value).hex())), timeout)
    result = {}
    try:
        result["disconnect_reason"] = int(await asyncio.wait_for(ended, wait))
    except asyncio.TimeoutError:
        result["link_still_up_after_s"] = wait
    result["values"] = values
    return result, 0


async def ask_for_2m(connection, timeout: float) -> dict:
    """LE Set PHY for LE 2M both ways; the PHYs the LE PHY Update Complete reported, or an error."""
    updated = asyncio.get_running_loop().create_future()
    connection.on("connection_phy_update", lambda phy: updated.done() or updated.set_result(phy))
    await connection.set_phy(tx_phys=[hci.Phy.LE_2M], rx_phys=[hci.Phy.LE_2M])
    try:
        phy = await asyncio.wait_for(updated, timeout)
    except asyncio.TimeoutError:
        return {"error": f"no PHY update within {timeout} s"}
    return {"tx": int(phy.tx_phy), "rx": int(phy.rx_phy)}


async def addresses(device: Device, name: str, seconds: float, active: bool = True) -> dict:
    """Scans for `seconds` (actively unless told) and returns the distinct addresses `name` advertised from,
    first seen first, and when Bumble heard its first and last advertisement (ms from the start of the scan)."""
    seen = []
    heard = []

    def on_advertisement(advertisement):
        local_name = advertisement.data.get(0x09) or advertisement.data.get(0x08)
        if isinstance(local_name, (bytes, bytearray)):
            local_name = local_name.decode(errors="replace")
        entry = [str(advertisement.address).split("/")[0], "public" if advertisement.address.is_public else "random"]
        if local_name == name:
            heard.append(time.monotonic())
            if entry not in seen:
                seen.append(entry)

    device.on("advertisement", on_advertisement)
    await device.start_scanning(active=active, filter_duplicates=False)
    started = time.monotonic()
    await asyncio.sleep(seconds)
    await device.stop_scanning()
    result = {"addresses": seen, "scan_ms": round((time.monotonic() - started) * 1000, 1)}
    if heard:
        result["first_heard_ms"] = round((heard[0] - started) * 1000, 1)
        result["last_heard_ms"] = round((heard[-1] - started) * 1000, 1)
    return result


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("transport")
    parser.add_argument("--name", required=True)
    parser.add_argument("--timeout", type=float, default=15.0, help="seconds to find, connect and discover")
    parser.add_argument("--wait", type=float, default=30.0, help="seconds to wait for the link to end")
    parser.add_argument("--address", default="C0:A1:B2:C3:D4:E5")
    parser.add_argument("--service-changed", choices=["rediscover", "ignore"],
                        help="wait for Service Changed and re-discover or ignore it, instead of waiting for a drop")
    parser.add_argument("--phy-2m", action="store_true", help="ask for LE 2M both ways after discovering")
    parser.add_argument("--addresses", type=float, metavar="SECONDS", help="only scan that long and print the addresses the accessory used")
    parser.add_argument("--passive", action="store_true", help="with --addresses, scan passively (no scan requests)")
    parser.add_argument("--collect", metavar="UUID", help="print the values notified of this characteristic until the link ends")
    parser.add_argument("--under-load", action="store_true",
                        help="count a notification flood of 2A37, then read 2A38 and record a parameter update, instead of waiting for a drop")
    args = parser.parse_args()
    result = {}
    async with await open_transport(args.transport) as transport:
        device = Device.with_hci("HIL-App", hci.Address(args.address), transport.source, transport.sink)
        await device.power_on()
        if args.addresses:
            print(json.dumps(await addresses(device, args.name, args.addresses, active=not args.passive)))
            return 0
        try:
            connection, connected = await connect(device, args.name, args.timeout)
            peer, first = await discover_peer(connection, args.timeout)
        except asyncio.TimeoutError:
            print(json.dumps({"error": f"could not find, connect to or discover {args.name} within {args.timeout} s"}))
            return 2
        result["first"] = first
        if args.phy_2m:
            result["phy"] = await ask_for_2m(connection, args.timeout)
        if args.collect:
            outcome, status = await collect(connection, peer, args.collect, args.timeout, args.wait)
            print(json.dumps({**result, **outcome}))
            return status
        if args.under_load:
            outcome, status = await under_load(connection, peer, args.timeout, args.wait)
            print(json.dumps({**result, **outcome}))
            return status
        if args.service_changed:
            outcome, status = await service_changed(connection, peer, args.service_changed, args.timeout, args.wait, connected)
            print(json.dumps({**result, **outcome}))
            return status
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
        except (Exception, asyncio.CancelledError) as error:  # the link ended under it (Bumble cancels its requests)
            result["again"] = {"error": type(error).__name__}
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
