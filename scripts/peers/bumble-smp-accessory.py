#!/usr/bin/env python3
"""An MCUmgr accessory played by Google's Bumble, its SMP messages read and written by intercreate's `smp` package
(the models smpclient uses), for the interoperability tests of hil's MCUmgr client: nothing of hil's decodes or
encodes its CBOR.

Serves the SMP service (8D53DC1D-1DB7-4CD3-868B-8A527460AA84; characteristic DA2E7828-…, write without response
and notify), joins each request from its writes by the header's length, and answers as Zephyr's image management
does over two slots: slot 0 runs a factory image (1.0.0, confirmed); an upload goes to slot 1 from offset 0 (or
resumes where an unfinished upload of the same `sha` stopped), each chunk written only at the offset it holds and
answered with the offset it holds; a state write with slot 1's hash marks it pending (and permanent with
`confirm`), one with `confirm` alone confirms the running image; echo and reset are answered (a reset here changes
no slot). Slot 1's hash and version are read from its MCUboot image (the SHA-256 TLV and the header), as MCUboot's
image manager reads them.

    bumble-smp-accessory.py TRANSPORT --name NAME --store FILE

Prints `READY <address>` once advertising. Slot 1's octets go to FILE when an upload completes. At SIGTERM it
prints one JSON object: `images` (slot, version, hash, active, pending, confirmed, permanent, bootable, as its
state read answers) and `uploads` (each upload request's offset and data length, in order).
"""
import argparse
import asyncio
import hashlib
import json
import struct
import sys

from bumble import hci
from bumble.device import Device
from bumble.gatt import Characteristic, CharacteristicValue, Service
from bumble.transport import open_transport
from smp import header as smphdr
from smp import image_management as img
from smp import os_management as os_

from bumble_lifecycle import advertise, close_quietly, run_until_stopped

SERVICE = "8D53DC1D-1DB7-4CD3-868B-8A527460AA84"
CHARACTERISTIC = "DA2E7828-FBCE-4E01-AE9E-261174997C48"
FACTORY = hashlib.sha256(b"bumble factory image").digest()


class ImageStatesWriteResponse(img.ImageStatesWriteResponse):
    """smp 4.2.0's model of this response inherits the read response's op (READ_RSP, 2); Zephyr's image management
    answers a state write with WRITE_RSP (3), as every write, and a client that matches a response to its request by
    op (as hil's does) waits for that one."""

    _OP = smphdr.OP.WRITE_RSP


def mcuboot_version_and_hash(image: bytes):
    """The version (as Zephyr prints it) and the SHA-256 TLV of an MCUboot image; (None, None) when it has none."""
    if len(image) < 32 or struct.unpack_from("<I", image, 0)[0] != 0x96F3B83D:
        return None, None
    header_size, protected_size, image_size = struct.unpack_from("<HHI", image, 8)
    major, minor, revision, build = struct.unpack_from("<BBHI", image, 20)
    version = f"{major}.{minor}.{revision}" + (f".{build}" if build else "")
    offset = header_size + image_size + protected_size
    if len(image) < offset + 4 or struct.unpack_from("<H", image, offset)[0] != 0x6907:
        return version, None
    end = offset + struct.unpack_from("<H", image, offset + 2)[0]
    offset += 4
    while offset + 4 <= end:
        kind, length = struct.unpack_from("<HH", image, offset)
        if kind == 0x10:
            return version, image[offset + 4:offset + 4 + length]
        offset += 4 + length
    return version, None


class Slots:
    def __init__(self, store):
        self.store = store
        self.confirmed = True
        self.secondary = None
        self.pending = False
        self.permanent = False
        self.upload = None  # {"len", "sha", "data"}
        self.uploads = []

    def states(self):
        states = [img.ImageState(slot=0, version="1.0.0", hash=FACTORY, bootable=True, pending=False,
                                 confirmed=self.confirmed, active=True, permanent=False)]
        if self.secondary is not None:
            version, digest = mcuboot_version_and_hash(self.secondary)
            states.append(img.ImageState(slot=1, version=version or "0.0.0", hash=digest, bootable=True, pending=self.pending,
                                         confirmed=False, active=False, permanent=self.permanent))
        return states

    def answer(self, data: bytes):
        """The response model to one whole request, or None for one it does not serve (dropped, as Zephyr drops it)."""
        request_header = smphdr.Header.loads(data[:smphdr.Header.SIZE])
        key = (request_header.group_id, request_header.command_id, request_header.op)
        reply = {"sequence": request_header.sequence, "version": request_header.version}
        image, os_group = smphdr.GroupId.IMAGE_MANAGEMENT, smphdr.GroupId.OS_MANAGEMENT
        commands = smphdr.CommandId.ImageManagement
        if key == (image, commands.STATE, smphdr.OP.READ):
            img.ImageStatesReadRequest.loads(data)
            return img.ImageStatesReadResponse(images=self.states(), **reply)
        if key == (image, commands.STATE, smphdr.OP.WRITE):
            request = img.ImageStatesWriteRequest.loads(data)
            if request.hash is None or request.hash == FACTORY:
                self.confirmed = self.confirmed or request.confirm
            elif self.secondary is not None and request.hash == mcuboot_version_and_hash(self.secondary)[1]:
                self.pending = True
                self.permanent = self.permanent or request.confirm
            return ImageStatesWriteResponse(images=self.states(), **reply)
        if key == (image, commands.UPLOAD, smphdr.OP.WRITE):
            request = img.ImageUploadWriteRequest.loads(data)
            self.uploads.append({"off": request.off, "data": len(request.data)})
            if request.off == 0:
                resumable = (self.upload is not None and request.sha is not None and self.upload["sha"] == request.sha
                             and 0 < len(self.upload["data"]) < self.upload["len"])
                if resumable:
                    return img.ImageUploadWriteResponse(off=len(self.upload["data"]), **reply)
                self.upload = {"len": request.len, "sha": request.sha, "data": bytearray()}
                self.secondary, self.pending, self.permanent = None, False, False
            if self.upload is None:
                return img.ImageUploadWriteResponse(off=0, **reply)
            if request.off == len(self.upload["data"]):
                self.upload["data"] += request.data
            if len(self.upload["data"]) >= self.upload["len"]:
                self.secondary = bytes(self.upload["data"])
                with open(self.store, "wb") as file:
                    file.write(self.secondary)
            return img.ImageUploadWriteResponse(off=len(self.upload["data"]), **reply)
        if key == (os_group, smphdr.CommandId.OSManagement.ECHO, smphdr.OP.WRITE):
            return os_.EchoWriteResponse(r=os_.EchoWriteRequest.loads(data).d, **reply)
        if key == (os_group, smphdr.CommandId.OSManagement.RESET, smphdr.OP.WRITE):
            os_.ResetWriteRequest.loads(data)
            return os_.ResetWriteResponse(**reply)
        return None


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("transport")
    parser.add_argument("--name", default="HIL-Bumble-SMP")
    parser.add_argument("--address", default="F0:F1:F2:F3:F4:F6")
    parser.add_argument("--store", required=True, help="where slot 1's octets go when an upload completes")
    args = parser.parse_args()

    slots = Slots(args.store)
    queue = asyncio.Queue()
    transport = await open_transport(args.transport)
    try:
        device = Device.with_hci(args.name, hci.Address(args.address), transport.source, transport.sink)
        characteristic = Characteristic(
            CHARACTERISTIC, Characteristic.Properties.WRITE_WITHOUT_RESPONSE | Characteristic.Properties.NOTIFY,
            Characteristic.WRITEABLE, CharacteristicValue(write=lambda connection, value: queue.put_nowait((connection, bytes(value)))))
        device.add_service(Service(SERVICE, [characteristic]))

        async def serve():
            buffers = {}
            while True:
                connection, fragment = await queue.get()
                buffer = buffers.get(connection.handle, b"") + fragment
                while len(buffer) >= smphdr.Header.SIZE:
                    end = smphdr.Header.SIZE + smphdr.Header.loads(buffer[:smphdr.Header.SIZE]).length
                    if len(buffer) < end:
                        break
                    try:
                        response = slots.answer(buffer[:end])
                    except Exception as error:  # a request smp's models cannot read: dropped, and said
                        print(f"bumble-smp-accessory: {type(error).__name__}: {error}", file=sys.stderr, flush=True)
                        response = None
                    buffer = buffer[end:]
                    if response is None:
                        continue
                    message = bytes(response)
                    size = connection.att_mtu - 3
                    for start in range(0, len(message), size):
                        await device.notify_subscriber(connection, characteristic, message[start:start + size], force=True)
                buffers[connection.handle] = buffer

        server = asyncio.get_running_loop().create_task(serve())
        await device.power_on()
        await advertise(device, args.name, 50, service_uuids=b"")
        print(f"READY {device.random_address}", flush=True)
        await run_until_stopped()
        server.cancel()
        images = [{"slot": s.slot, "version": s.version, "hash": (s.hash or b"").hex(), "active": s.active, "pending": s.pending,
                   "confirmed": s.confirmed, "permanent": s.permanent, "bootable": s.bootable} for s in slots.states()]
        print(json.dumps({"images": images, "uploads": slots.uploads}), flush=True)
    finally:
        await close_quietly(transport)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
