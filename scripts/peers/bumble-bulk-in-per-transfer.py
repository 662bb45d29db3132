#!/usr/bin/env python3
"""Runs a Bumble app with its usb: transport reading bulk IN as Bumble did before 0.0.230: one transfer, one
packet. For the lab twin's Intel check (scripts/kernel/intel-scenario, `bumble-download`).

    python3 scripts/peers/bumble-bulk-in-per-transfer.py MODULE [ARG...]
    e.g. python3 scripts/peers/bumble-bulk-in-per-transfer.py bumble.apps.controller_info usb:8087:0032

Why: an Intel bootloader answers Secure Send with events on bulk IN (Linux btusb_recv_bulk_intel), and Bumble's
Intel driver (bumble/drivers/intel.py, written and tested on AX210 and BE200 in 2024) takes them "from the ACL
channel". Since 0.0.230 (commit e44eaf2, "implement packet splitters") the usb: transport cuts bulk IN into ACL
packets by the ACL header's length field, which in a Command Complete event is the credit and the opcode's low
octet (0x0901 for 0xFC09): the first answer never comes out and the driver waits for it forever. Here the ACL
splitter emits each transfer whole, as the transport did before; nothing else of Bumble changes.
"""
import runpy
import sys

from bumble.transport import usb


def emit_whole_transfer(self, data):
    """One bulk IN transfer is one packet (Bumble < 0.0.230's reading)."""
    self.emit(bytes(data))


def main():
    if len(sys.argv) < 2:
        print("usage: bumble-bulk-in-per-transfer.py MODULE [ARG...]", file=sys.stderr)
        sys.exit(3)
    usb.AclPacketSplitter.feed = emit_whole_transfer
    module = sys.argv[1]
    sys.argv = [module] + sys.argv[2:]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
