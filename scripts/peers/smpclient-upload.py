#!/usr/bin/env python3
"""Uploads an MCUboot image with intercreate's smpclient over its Bumble transport, for hil's interoperability tests.

    python scripts/peers/smpclient-upload.py HCI_TRANSPORT NAME IMAGE [--test-and-reset]

HCI_TRANSPORT is a Bumble transport (unix:PATH for `hil sim serve`'s air), NAME the accessory's advertised name.
Prints one JSON object: the image states smpclient read before and after the upload (slot, version, hash,
active, pending, confirmed, permanent) and the offsets the accessory answered, in order. With --test-and-reset it
then marks the uploaded image for test ("tested": the states the test request's answer lists), resets the
accessory, connects again once it advertises after its reset (MCUboot swaps first) and reads what it booted
("rebooted"). Exit 1 with the error otherwise.
"""
import asyncio
import json
import sys

from smpclient import SMPClient
from smpclient.requests.image_management import ImageStatesRead, ImageStatesWrite
from smpclient.requests.os_management import ResetWrite
from smpclient.transport.bumble import SMPBumbleTransport


def states(response):
    if not hasattr(response, "images"):
        raise RuntimeError(f"expected image states, the accessory answered {response}")
    return [{"slot": s.slot, "version": s.version, "hash": (s.hash or b"").hex(), "active": bool(s.active),
             "pending": bool(s.pending), "confirmed": bool(s.confirmed), "permanent": bool(s.permanent)}
            for s in response.images]


async def main(hci, name, path, test_and_reset=False):
    with open(path, "rb") as file:
        image = file.read()
    result = {}
    async with SMPClient(SMPBumbleTransport(hci=hci), name, timeout_s=10) as client:
        result["before"] = states(await client.request(ImageStatesRead()))
        result["offsets"] = [offset async for offset in client.upload(image)]
        result["after"] = states(await client.request(ImageStatesRead()))
        if test_and_reset:
            secondary = next(s for s in result["after"] if s["slot"] == 1)
            result["tested"] = states(await client.request(ImageStatesWrite(hash=bytes.fromhex(secondary["hash"]), confirm=False)))
            await client.request(ResetWrite())
    if test_and_reset:
        # The accessory resets (its link times out here) and MCUboot swaps before it advertises again: connect anew.
        async with SMPClient(SMPBumbleTransport(hci=hci), name, timeout_s=10) as client:
            result["rebooted"] = states(await client.request(ImageStatesRead()))
    print(json.dumps(result))


if __name__ == "__main__":
    try:
        options = [argument for argument in sys.argv[4:] if argument != "--test-and-reset"]
        if len(sys.argv) < 4 or options:
            raise ValueError(f"usage: smpclient-upload.py HCI_TRANSPORT NAME IMAGE [--test-and-reset] (not {options})")
        asyncio.run(asyncio.wait_for(main(*sys.argv[1:4], test_and_reset="--test-and-reset" in sys.argv[4:]), timeout=120))
    except Exception as error:  # one line for the test's message, whatever failed
        print(f"smpclient-upload: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(1)
