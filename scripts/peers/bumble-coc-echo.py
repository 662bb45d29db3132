#!/usr/bin/env python3
"""An LE credit-based channel echo played by Google's Bumble (PyPI `bumble`): Bumble's own controller and
host as the peer of ours, with nothing else running.

Two Bumble controllers share a `bumble.link.LocalLink`: one is served as H4 on a TCP port of 127.0.0.1 for our
host to open (`tcp-client:127.0.0.1:PORT`), the other carries a Bumble `Device` that advertises NAME and
listens on SPSM with Bumble's LE credit-based channel server (`Device.create_l2cap_server` with a
`LeCreditBasedChannelSpec`), sending every SDU it receives straight back. Prints one line
`READY <port>` once advertising, and `SDU <length>` per SDU echoed; runs until SIGTERM or SIGINT.

    bumble-coc-echo.py --name HIL-CoC --spsm 0x0080 --mtu 512 --mps 64 --credits 4
"""
import argparse
import asyncio
import socket

from bumble import hci, l2cap
from bumble.controller import Controller
from bumble.device import Device
from bumble.host import Host
from bumble.link import LocalLink
from bumble.transport import open_transport
from bumble_lifecycle import advertise, close_quietly, run_until_stopped


def free_port() -> int:
    """A TCP port of 127.0.0.1 nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", default="HIL-CoC")
    parser.add_argument("--address", default="F0:F1:F2:F3:F4:C0")
    parser.add_argument("--spsm", type=lambda text: int(text, 0), default=0x0080)
    parser.add_argument("--mtu", type=int, default=512)
    parser.add_argument("--mps", type=int, default=64)
    parser.add_argument("--credits", type=int, default=4)
    args = parser.parse_args()

    link = LocalLink()
    port = free_port()
    ours = await open_transport(f"tcp-server:127.0.0.1:{port}")
    try:
        ours_controller = Controller("ours", host_source=ours.source, host_sink=ours.sink, link=link,
                                     public_address="F0:F1:F2:F3:F4:C1")
        # Bumble's LocalLink sends LE data from a controller's random address, which our host (connecting with
        # its public address) never sets: the same address keeps the peer's link lookup working.
        ours_controller.random_address = ours_controller.public_address
        peer_controller = Controller("peer", link=link, public_address=args.address)
        device = Device(name=args.name, address=hci.Address(args.address),
                        host=Host(controller_source=peer_controller, controller_sink=peer_controller))

        def on_channel(channel: l2cap.LeCreditBasedChannel) -> None:
            def on_sdu(sdu: bytes) -> None:
                print(f"SDU {len(sdu)}", flush=True)
                channel.write(sdu)
            channel.sink = on_sdu

        device.create_l2cap_server(
            spec=l2cap.LeCreditBasedChannelSpec(psm=args.spsm, mtu=args.mtu, mps=args.mps, max_credits=args.credits),
            handler=on_channel)
        await device.power_on()
        await advertise(device, args.name, 30)
        print(f"READY {port}", flush=True)
        await run_until_stopped()
    finally:
        await close_quietly(ours)
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
