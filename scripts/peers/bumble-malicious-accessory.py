#!/usr/bin/env python3
"""A BLE accessory played by Google's Bumble that misbehaves on purpose, one attack per process.

Advertises like scripts/peers/bumble-accessory.py (Battery, Heart Rate) and serves its GATT database
with Bumble's server, except where --attack makes it break a rule with raw PDUs on the ATT bearer
(CID 0x0004), the LE signaling channel (0x0005), the SMP channel (0x0006) or the ACL stream itself.
Prints `READY <address>` once advertising; runs until killed.

    bumble-malicious-accessory.py unix:/tmp/bt-server-le --attack mtu-zero --name HIL-Evil-1 --address F3:00:00:00:00:01

Attacks (what the central must report as a protocol violation):
  truncated-response   Exchange MTU answered with an Exchange MTU Response cut short (03 17: no second MTU octet)
  oversized-response   Read By Group Type answered with 38 octets on the default ATT_MTU of 23
  wrong-opcode         Exchange MTU answered with a Read Response (0b 00)
  wrong-handle         Read By Group Type from 0x0021 answered with a service at 0x0001 (a handle never asked)
  unsolicited-response an extra Exchange MTU Response after the real one (no request outstanding)
  mtu-zero             Exchange MTU answered with Server Rx MTU 0
  mtu-65535            Exchange MTU answered with 65535 (legal), then a 600-octet response over the agreed 517
  backwards-handles    Read By Group Type answered with a service whose group ends (0x0001) before it starts (0x0005)
  zero-handle          Find Information answered with a descriptor at handle 0x0000
  notification-flood   400 Handle Value Notifications nobody subscribed to, as fast as the link takes them
  signaling-garbage    a Connection Parameter Update Request whose length claims 8 octets and carries 2
  smp-out-of-order     a Pairing Random before any Pairing Request or Confirm
  smp-unrequested      a Pairing Response to a central that never asked to pair
  acl-length-lie       an ACL packet whose L2CAP length claims 64 octets and carries 3, then a good frame
"""
import argparse
import asyncio
import struct
import sys

from bumble import hci
from bumble.att import ATT_CID
from bumble.device import Device
from bumble.profiles.battery_service import BatteryService
from bumble.profiles.heart_rate_service import HeartRateService
from bumble.transport import open_transport
from bumble_lifecycle import advertise, close_quietly, run_until_stopped

SIGNALING_CID = 0x0005
SMP_CID = 0x0006
EXCHANGE_MTU_REQUEST, FIND_INFORMATION_REQUEST, READ_BY_GROUP_TYPE_REQUEST = 0x02, 0x04, 0x10


def group(handle: int, end: int, uuid16: int = 0x180F) -> bytes:
    return struct.pack("<HHH", handle, end, uuid16)


def replacement(attack: str, request: bytes) -> bytes | None:
    """The raw answer to an ATT request under `attack`, or None to let Bumble's server answer."""
    opcode = request[0]
    if opcode == EXCHANGE_MTU_REQUEST:
        return {
            "truncated-response": bytes([0x03, 0x17]),
            "wrong-opcode": bytes([0x0B, 0x00]),
            "mtu-zero": bytes([0x03, 0x00, 0x00]),
            "mtu-65535": bytes([0x03, 0xFF, 0xFF]),
            "oversized-response": bytes([0x03, 0x17, 0x00]),
            "wrong-handle": bytes([0x03, 0x17, 0x00]),
            "backwards-handles": bytes([0x03, 0x17, 0x00]),
        }.get(attack)
    if opcode == READ_BY_GROUP_TYPE_REQUEST:
        start = struct.unpack_from("<H", request, 1)[0]
        if attack == "oversized-response":
            return bytes([0x11, 0x06]) + b"".join(group(8 * i, 8 * i + 7) for i in range(1, 7))
        if attack == "mtu-65535":
            return bytes([0x11, 0x06]) + b"".join(group(8 * i, 8 * i + 7) for i in range(1, 101))
        if attack == "backwards-handles":
            return bytes([0x11, 0x06]) + group(0x0005, 0x0001)
        if attack == "wrong-handle":
            return bytes([0x11, 0x06]) + (group(0x0010, 0x0020) if start < 0x0021 else group(0x0001, 0x0008))
    if opcode == FIND_INFORMATION_REQUEST and attack == "zero-handle":
        return bytes([0x05, 0x01, 0x00, 0x00, 0x02, 0x29])
    return None


def misbehave_on_att(device: Device, attack: str) -> None:
    """Puts `attack` between the ATT channel and Bumble's GATT server."""
    serve = device.on_gatt_pdu

    def on_att(connection_handle: int, pdu: bytes) -> None:
        answer = replacement(attack, pdu) if pdu else None
        if answer is not None:
            device.send_l2cap_pdu(connection_handle, ATT_CID, answer)
            return
        serve(connection_handle, pdu)
        if attack == "unsolicited-response" and pdu and pdu[0] == EXCHANGE_MTU_REQUEST:
            device.send_l2cap_pdu(connection_handle, ATT_CID, bytes([0x03, 0x17, 0x00]))

    device.l2cap_channel_manager.register_fixed_channel(ATT_CID, on_att)


async def attack_link(device: Device, connection, attack: str) -> None:
    """The attacks that need no request: sent once the link is up."""
    await asyncio.sleep(0.05)
    handle = connection.handle
    if attack == "notification-flood":
        for count in range(400):
            device.send_l2cap_pdu(handle, ATT_CID, bytes([0x1B, 0x03, 0x00, count & 0xFF]))
            if count % 20 == 19:
                await asyncio.sleep(0)
    elif attack == "signaling-garbage":
        device.send_l2cap_pdu(handle, SIGNALING_CID, bytes([0x12, 0x07, 0x08, 0x00, 0x06, 0x00]))
    elif attack == "smp-out-of-order":
        device.send_l2cap_pdu(handle, SMP_CID, bytes([0x04]) + bytes(range(16)))
    elif attack == "smp-unrequested":
        device.send_l2cap_pdu(handle, SMP_CID, bytes([0x02, 0x03, 0x00, 0x01, 0x10, 0x00, 0x00]))
    elif attack == "acl-length-lie":
        lie = struct.pack("<HH", 64, ATT_CID) + bytes([0x1B, 0x03, 0x00])
        device.host.send_hci_packet(hci.HCI_AclDataPacket(connection_handle=handle, pb_flag=hci.HCI_ACL_PB_FIRST_FLUSHABLE,
                                                          bc_flag=0, data_total_length=len(lie), data=lie))
        await asyncio.sleep(0.05)
        device.send_l2cap_pdu(handle, ATT_CID, bytes([0x1B, 0x03, 0x00, 0x01]))


ATTACKS = ["truncated-response", "oversized-response", "wrong-opcode", "wrong-handle", "unsolicited-response", "mtu-zero",
           "mtu-65535", "backwards-handles", "zero-handle", "notification-flood", "signaling-garbage", "smp-out-of-order",
           "smp-unrequested", "acl-length-lie"]


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("transport")
    parser.add_argument("--attack", required=True, choices=ATTACKS)
    parser.add_argument("--name", default="HIL-Evil")
    parser.add_argument("--address", default="F3:00:00:00:00:01")
    parser.add_argument("--interval", type=float, default=100.0, help="advertising interval in ms")
    args = parser.parse_args()

    transport = await open_transport(args.transport)
    try:
        device = Device.with_hci(args.name, hci.Address(args.address), transport.source, transport.sink)
        device.add_services([
            BatteryService(lambda _connection: 87),
            HeartRateService(read_heart_rate_measurement=lambda _connection: HeartRateService.HeartRateMeasurement(72),
                             body_sensor_location=HeartRateService.BodySensorLocation.WRIST),
        ])
        misbehave_on_att(device, args.attack)
        tasks = set()

        def on_connection(connection):
            task = asyncio.get_running_loop().create_task(attack_link(device, connection, args.attack))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

        device.on("connection", on_connection)
        await device.power_on()
        await advertise(device, args.name, args.interval)
        print(f"READY {device.random_address}", flush=True)
        await run_until_stopped()
    finally:
        await close_quietly(transport)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
