#!/usr/bin/env python3
"""What Bumble's Intel driver (bumble/drivers/intel.py) sends from each intel/ibt-XXXX-YYYY.sfi and .ddc, for the
reference check of ControllerFirmware's Intel parsing and `hil firmware inspect` (Tests/hilCommandTests/
FirmwareInspectIntelBumbleTests.swift).

    .venv/bin/python scripts/peers/bumble-intel-firmware.py [FIRMWARE_DIR]

FIRMWARE_DIR holds intel/ (default: $HIL_FIRMWARE_DIR, else .build/firmware/lib/firmware, where
`scripts/install-deps --firmware` unpacks Debian's firmware-iwlwifi). For every .sfi named by CNVi and CNVr tops
(the TLV generations Bumble's driver supports) and each secure boot engine (RSA 0x00, ECDSA 0x01), Bumble's own
`Driver.load_firmware` runs against a stand-in host: a TyP (hardware variant 0x17) bootloader whose Intel Read
Version TLV names that file, acknowledging every command. One JSON object a line: the Secure Send fragments it
sent (count, the SHA-256 of their parameters — type octet then data — in order), the Intel Reset's boot address
and the Write Device Config commands of the .ddc (count, SHA-256 of their parameters).
"""
import asyncio
import glob
import hashlib
import json
import os
import re
import struct
import sys
from importlib.metadata import version

from bumble import hci
from bumble.drivers import intel


class Host:
    """The parts of bumble.host.Host that the Intel driver uses, answering as a bootloader."""

    def __init__(self, tlv):
        self.hci_metadata = {"driver": "intel"}
        self.ready = False
        self.tlv = tlv
        self.handlers = {}
        self.on_packet = None
        self.driver = None
        self.secure_sends = []
        self.reset = None
        self.ddc = []

    def on(self, name, handler):
        self.handlers[name] = handler

    def vendor_event(self, parameters):
        self.handlers["vendor_event"](hci.HCI_Vendor_Event(data=bytes(parameters)))

    def send_hci_packet(self, command):
        if isinstance(command, intel.Hci_Intel_Secure_Send_Command):
            self.secure_sends.append(bytes([command.data_type]) + bytes(command.data))
            complete = hci.HCI_Command_Complete_Event(num_hci_command_packets=1, command_opcode=command.op_code,
                                                      return_parameters=hci.HCI_StatusReturnParameters(status=0))
            asyncio.get_running_loop().call_soon(self.on_packet, bytes(complete))
        elif isinstance(command, intel.HCI_Intel_Reset_Command):
            self.reset = command
            asyncio.get_running_loop().call_soon(self.vendor_event, [0x02, 0, 1, 0, 0, 0, 0])

    async def send_sync_command_raw(self, command):
        if isinstance(command, hci.HCI_Reset_Command):
            parameters = hci.HCI_StatusReturnParameters(status=hci.HCI_UNKNOWN_HCI_COMMAND_ERROR)
        else:
            parameters = intel.HCI_Intel_Read_Version_ReturnParameters(status=0, tlv=self.tlv)
        return hci.HCI_Command_Complete_Event(num_hci_command_packets=1, command_opcode=command.op_code,
                                             return_parameters=parameters)

    async def send_sync_command(self, command):
        self.ddc.append(bytes(command.data))


def tlv(cnvi, cnvr, sbe_type):
    def entry(kind, value):
        return bytes([kind, len(value)]) + value

    # The inverse of Bumble's and btintel's packing: the file name's 4 digits are the byte-swapped (type << 4 | step).
    def top(packed):
        swapped = ((packed & 0xFF) << 8) | (packed >> 8)
        return struct.pack("<I", (swapped >> 4) | ((swapped & 0xF) << 24))

    return (entry(0x10, top(cnvi)) + entry(0x11, top(cnvr)) + entry(0x12, struct.pack("<I", 0x00173700))
            + entry(0x1C, bytes([0x01])) + entry(0x2F, bytes([sbe_type])))


async def load(path, sbe_type):
    name = os.path.basename(path)
    cnvi, cnvr = (int(part, 16) for part in re.match(r"ibt-([0-9a-f]{4})-([0-9a-f]{4})\.sfi$", name).groups())
    host = Host(tlv(cnvi, cnvr, sbe_type))
    driver = intel.Driver(host)
    host.driver = driver

    async def complete_download():
        # The bootloader's "download complete" vendor event once the data fragments stop.
        while True:
            await asyncio.sleep(0.001)
            if driver.can_send_firmware_load_command.is_set() and host.secure_sends and host.on_packet == driver.on_packet:
                count = len(host.secure_sends)
                await asyncio.sleep(0.01)
                if count == len(host.secure_sends):
                    host.vendor_event([0x06, 0x00, 0x09, 0xFC, 0x00])
                    return

    completer = asyncio.ensure_future(complete_download())
    await asyncio.wait_for(driver.load_firmware(), 120)
    completer.cancel()
    sent = b"".join(host.secure_sends)
    return {
        "file": path, "bumble": version("bumble"), "sbe_type": sbe_type,
        "fragments": len(host.secure_sends), "length": len(sent), "sha256": hashlib.sha256(sent).hexdigest(),
        "first_types": [fragment[0] for fragment in host.secure_sends[:8]],
        "boot_address": host.reset.boot_address if host.reset else None,
        "ddc_commands": len(host.ddc), "ddc_sha256": hashlib.sha256(b"".join(host.ddc)).hexdigest(),
    }


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("HIL_FIRMWARE_DIR", ".build/firmware/lib/firmware")
    files = sorted(path for path in glob.glob(os.path.join(root, "intel", "ibt-*.sfi"))
                   if re.match(r"ibt-[0-9a-f]{4}-[0-9a-f]{4}\.sfi$", os.path.basename(path)))
    if not files:
        sys.exit(f"bumble-intel-firmware: no intel/ibt-XXXX-YYYY.sfi under {root} (scripts/install-deps --firmware)")
    os.environ[intel.INTEL_FIRMWARE_DIR_ENV] = os.path.join(root, "intel")
    for path in files:
        for sbe_type in (0, 1):
            print(json.dumps(asyncio.run(load(path, sbe_type))), flush=True)


main()
