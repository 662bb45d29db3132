#!/usr/bin/env python3
"""Uploads an MCUboot image with intercreate's smpclient over its Bumble transport, for hil's interoperability tests.

    python scripts/peers/smpclient-upload.py HCI_TRANSPORT NAME IMAGE

HCI_TRANSPORT is a Bumble transport (unix:PATH for `hil sim serve`'s air), NAME the accessory's advertised name.
Prints one JSON object: the image states smpclient read before and after the upload (slot, version, hash,
active, pending, confirmed) and the offsets the accessory answered, in order. Exit 1 with the error otherwise.
"""
import asyncio
import json
import sys

from smpclient import SMPClient
from smpclient.requests.image_management import ImageStatesRead
from smpclient.transport.bumble import SMPBumbleTransport


def states(response):
    return [{"slot": s.slot, "version": s.version, "hash": (s.hash or b"").hex(), "active": bool(s.active),
             "pending": bool(s.pending), "confirmed": bool(s.confirmed)} for s in response.images]


async def main(hci, name, path):
    with open(path, "rb") as file:
        image = file.read()
    async with SMPClient(SMPBumbleTransport(hci=hci), name, timeout_s=10) as client:
        before = await client.request(ImageStatesRead())
        offsets = [offset async for offset in client.upload(image)]
        after = await client.request(ImageStatesRead())
    print(json.dumps({"before": states(before), "offsets": offsets, "after": states(after)}))


if __name__ == "__main__":
    try:
        asyncio.run(asyncio.wait_for(main(*sys.argv[1:4]), timeout=120))
    except Exception as error:  # one line for the test's message, whatever failed
        print(f"smpclient-upload: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(1)
