#!/usr/bin/env python3
"""A BLE central played by Google's Bumble (PyPI `bumble`) for the link-loss proof of `hil sim serve`:
finds an advertiser by name, connects with the supervision timeout asked for, then reports how the link
ends and whether the advertiser is found again. One line per step on stdout (flushed):

    READY <own address>
    CONNECTED <peer address> interval_ms=<x> supervision_timeout_ms=<y>
    DISCONNECTED reason=0x<hh>
    FOUND_AGAIN <peer address>          (or NOT_FOUND_AGAIN after --wait seconds)

    bumble-link-loss.py unix:/tmp/hil-air --name HIL-Thermo [--supervision-timeout 300] [--wait 15]
Exit status 0 when every step happened, 2 when one did not within --wait seconds.
"""
import argparse
import asyncio
import sys

from bumble import hci
from bumble.device import ConnectionParametersPreferences, Device
from bumble.transport import open_transport

from bumble_scan import find


def say(line: str) -> None:
    print(line, flush=True)


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("transport")
    parser.add_argument("--name", required=True)
    parser.add_argument("--supervision-timeout", type=float, default=300.0, help="milliseconds")
    parser.add_argument("--interval", type=float, default=30.0, help="connection interval, milliseconds")
    parser.add_argument("--wait", type=float, default=15.0, help="seconds allowed for each step")
    parser.add_argument("--address", default="C0:B1:B2:B3:B4:B5")
    args = parser.parse_args()
    async with await open_transport(args.transport) as transport:
        device = Device.with_hci("HIL-Bumble-LinkLoss", hci.Address(args.address), transport.source, transport.sink)
        await device.power_on()
        say(f"READY {device.random_address}")
        try:
            advertisement = await find(device, args.name, args.wait, active=False)
        except asyncio.TimeoutError:
            say("NOT_FOUND")
            return 2
        preferences = ConnectionParametersPreferences(
            connection_interval_min=args.interval, connection_interval_max=args.interval, max_latency=0,
            supervision_timeout=int(args.supervision_timeout))
        connection = await asyncio.wait_for(
            device.connect(advertisement.address, own_address_type=hci.OwnAddressType.RANDOM,
                           connection_parameters_preferences={hci.Phy.LE_1M: preferences}), args.wait)
        ended = asyncio.get_running_loop().create_future()
        connection.on("disconnection", lambda reason: ended.done() or ended.set_result(reason))
        parameters = connection.parameters
        say(f"CONNECTED {advertisement.address} interval_ms={parameters.connection_interval} "
            f"supervision_timeout_ms={parameters.supervision_timeout}")
        try:
            reason = await asyncio.wait_for(ended, args.wait)
        except asyncio.TimeoutError:
            say("NO_DISCONNECTION")
            return 2
        say(f"DISCONNECTED reason=0x{int(reason):02x}")
        try:
            again = await find(device, args.name, args.wait, active=False)
        except asyncio.TimeoutError:
            say("NOT_FOUND_AGAIN")
            return 2
        say(f"FOUND_AGAIN {again.address}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
