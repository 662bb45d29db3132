#!/usr/bin/env python3
"""Writes MCUmgr SMP messages as intercreate's `smp` package encodes them, for MCUmgrTests (run by
scripts/peers/mcumgr-fixtures).

Each request: what it is and the hex of the whole message (8-octet header and CBOR body) that smp's model gives.
Each response: its hex and the fields smp's model holds, as JSON (bytes as hex). Each upload chunk: the request
smpclient's `_maximize_upload_packet` builds for an image of 5,000 octets at an ATT_MTU (smpclient's BLE transport
sends ATT_MTU − 3 octets a write), its hex and data length.
"""
import hashlib
import json
import sys
from importlib.metadata import version
from types import SimpleNamespace

from smp import error, header
from smp import image_management as img
from smp import os_management as os_
from smpclient import SMPClient
from smpclient.requests.image_management import ImageUploadWrite

HASH = bytes(range(32))
IMAGE = bytes((i * 7 + 3) & 0xFF for i in range(5000))

REQUESTS = [
    ("echo 'hello'", os_.EchoWriteRequest(d="hello", sequence=1)),
    ("echo 'v1' as version 1", os_.EchoWriteRequest(d="v1", version=header.Version.V1, sequence=2)),
    ("reset", os_.ResetWriteRequest(sequence=3)),
    ("reset forced", os_.ResetWriteRequest(force=1, sequence=4)),
    ("image state read", img.ImageStatesReadRequest(sequence=5)),
    ("image state write: test hash", img.ImageStatesWriteRequest(hash=HASH, sequence=6)),
    ("image state write: confirm the running image", img.ImageStatesWriteRequest(confirm=True, sequence=7)),
    ("image state write: confirm hash", img.ImageStatesWriteRequest(hash=HASH, confirm=True, sequence=8)),
    ("image upload: first chunk", img.ImageUploadWriteRequest(off=0, data=IMAGE[:100], len=len(IMAGE),
                                                             sha=hashlib.sha256(IMAGE).digest(), sequence=9)),
    ("image upload: first chunk with image and upgrade",
     img.ImageUploadWriteRequest(off=0, data=IMAGE[:40], image=0, len=len(IMAGE), sha=hashlib.sha256(IMAGE).digest(),
                                 upgrade=False, sequence=10)),
    ("image upload: chunk at 4096", img.ImageUploadWriteRequest(off=4096, data=IMAGE[4096:4296], sequence=11)),
    ("image erase", img.ImageEraseRequest(sequence=12)),
    ("image erase slot 1", img.ImageEraseRequest(slot=1, sequence=13)),
]



def answering(model, command):
    """smp's error model `model` as the answer to a write of `command` (its models take both from the request)."""
    return type(model.__name__, (model,), {"_OP": header.OP.WRITE_RSP, "_COMMAND_ID": command})


ImageErrorV1 = answering(img.ImageManagementErrorV1, header.CommandId.ImageManagement.STATE)
ImageErrorV2 = answering(img.ImageManagementErrorV2, header.CommandId.ImageManagement.STATE)
OSErrorV1 = answering(os_.OSManagementErrorV1, header.CommandId.OSManagement.RESET)
OSErrorV2 = answering(os_.OSManagementErrorV2, header.CommandId.OSManagement.RESET)


STATES = [
    img.ImageState(slot=0, version="1.2.3.4", hash=HASH, bootable=True, confirmed=True, active=True),
    img.ImageState(slot=1, version="1.3.0", hash=bytes(reversed(HASH)), pending=True, bootable=True),
]

RESPONSES = [
    ("echo response", os_.EchoWriteResponse(r="hello", sequence=1)),
    ("reset response", os_.ResetWriteResponse(sequence=3)),
    ("image state response", img.ImageStatesReadResponse(images=STATES, sequence=5)),
    ("image state write response", img.ImageStatesWriteResponse(images=STATES, sequence=6)),
    ("upload response at 4096", img.ImageUploadWriteResponse(off=4096, sequence=11)),
    ("upload response, last, hash matched", img.ImageUploadWriteResponse(off=5000, match=True, sequence=12)),
    ("erase response", img.ImageEraseResponse(sequence=13)),
    ("rc error (version 1)", ImageErrorV1(rc=error.MGMT_ERR.EBADSTATE, version=header.Version.V1, sequence=6)),
    ("rc error with reason", OSErrorV1(rc=error.MGMT_ERR.ENOTSUP, rsn="no", version=header.Version.V1, sequence=3)),
    ("group error (version 2)", ImageErrorV2(
        err=error.Err[img.IMG_MGMT_ERR](group=header.GroupId.IMAGE_MANAGEMENT, rc=img.IMG_MGMT_ERR.INVALID_HASH), sequence=6)),
    ("os group error (version 2)", OSErrorV2(
        err=error.Err[os_.OS_MGMT_RET_RC](group=header.GroupId.OS_MANAGEMENT, rc=os_.OS_MGMT_RET_RC.UNKNOWN), sequence=3)),
]


def plain(value):
    """JSON for a model's field: bytes as hex, enums as their numbers, models as objects."""
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items() if item is not None}
    if hasattr(value, "model_dump"):
        return plain(value.model_dump(exclude_none=True, exclude={"header", "version", "sequence", "smp_data"}))
    return int(value) if hasattr(value, "__int__") and not isinstance(value, bool) else value


def header_fields(message):
    h = message.header
    return {"op": int(h.op), "version": int(h.version), "flags": int(h.flags), "length": h.length,
            "group": int(h.group_id), "sequence": h.sequence, "command": int(h.command_id)}


def chunks():
    """smpclient's first and later upload requests for IMAGE at each ATT_MTU."""
    result = []
    for mtu in (23, 65, 100, 185, 247, 498, 517):
        client = SimpleNamespace(_transport=SimpleNamespace(max_unencoded_size=mtu - 3),
                                 _cbor_integer_size=SMPClient._cbor_integer_size)
        client.get_max_cbor_and_data_size = lambda request, c=client: SMPClient.get_max_cbor_and_data_size(c, request)
        first = SMPClient._maximize_upload_packet(client, ImageUploadWrite(
            off=0, data=b"", image=0, len=len(IMAGE), sha=hashlib.sha256(IMAGE).digest(), upgrade=False, sequence=20), IMAGE)
        later = SMPClient._maximize_upload_packet(client, ImageUploadWrite(off=1000, data=b"", sequence=21), IMAGE)
        last = SMPClient._maximize_upload_packet(client, ImageUploadWrite(off=4990, data=b"", sequence=22), IMAGE)
        for what, request in (("first", first), ("at 1000", later), ("at 4990", last)):
            result.append({"mtu": mtu, "what": what, "off": request.off, "dataLength": len(request.data),
                           "hex": bytes(request).hex()})
    return result


json.dump({
    "smp": version("smp"),
    "smpclient": version("smpclient"),
    "imageLength": len(IMAGE),
    "requests": [{"what": what, "header": header_fields(message), "hex": bytes(message).hex()} for what, message in REQUESTS],
    "responses": [{"what": what, "header": header_fields(message), "hex": bytes(message).hex(), "fields": plain(message)}
                  for what, message in RESPONSES],
    "uploadChunks": chunks(),
}, sys.stdout, indent=1)
sys.stdout.write("\n")
