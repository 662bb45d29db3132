#!/usr/bin/env python3
"""A BLE central that pairs, played by Google's Bumble (PyPI `bumble` 0.0.236): the peer for interop tests of
our SMP (pairing) implementation as a peripheral, and the counterpart of bumble-secure-accessory.py.

It scans for an advertiser by name, connects, pairs as the initiator with the method asked for (or, when
its key store already holds keys for that peer, encrypts with them: a bonded reconnect), reads one
characteristic by UUID once the link is encrypted, disconnects and prints one JSON line.
Exit status 0 when the link was encrypted and the value read, 1 otherwise; --timeout bounds the whole run.

    bumble-secure-central.py TRANSPORT --name NAME --method {just-works,passkey,numeric-comparison,oob}
        [--passkey N] [--legacy] [--keystore FILE] [--read-uuid UUID] [--timeout 10] [--address ADDR]
        [--force-pair] [--read-first] [--no-bonding] [--oob-c HEX --oob-r HEX | --oob-tk HEX]

Methods (the IO capability it announces):
    just-works           NoInputNoOutput
    passkey              KeyboardOnly: it types --passkey, which the peripheral displays
    numeric-comparison   DisplayYesNo, answers "yes" (the value is in "number"); with --legacy the spec's
                         table gives Just Works
    oob                  Secure Connections: the peripheral's confirm/random values (--oob-c, --oob-r: hex,
                         as the accessory's `OOB` line prints them); legacy: the TK (--oob-tk)
It distributes its random static address (--address) as its identity, and keeps keys in the JSON key store
under that address as the namespace, keyed by the peer's identity address (see bumble-secure-accessory.py).

One JSON line on stdout (Bumble's log goes to stderr):
    paired            it paired on this connection
    method            Bumble's name for the method: JUST_WORKS, PASSKEY, NUMERIC_COMPARISON, OOB (also for a
                      failed pairing); null on a bonded reconnect
    sc                Secure Connections (null on a bonded reconnect)
    bonded            both sides asked for bonding (keys kept); with --no-bonding the keys are dropped
    bonded_reconnect  it encrypted with stored keys instead of pairing; encrypt_ms: how long that took
    encrypted, key_size (null when the controller does not say: btvirt 5.66)
    authenticated     the key came from an authenticated (MITM-protected) method
    value             the characteristic's value (hex) or null; unencrypted_read (with --read-first): the
                      value or the ATT error name of a read before pairing
    error             null, or what failed, with Bumble's names: "pairing failed: smp: CONFIRM_VALUE_FAILED
                      (0x04)", "encryption with the stored keys failed: hci: PIN_OR_KEY_MISSING_ERROR (0x06)",
                      "read failed: INSUFFICIENT_AUTHENTICATION", "timed out after 10.0 s while pairing", ...
    pairing_ms        from Pairing Request to pairing complete (keys exchanged), on the central's clock
    connect_ms, peer (the advertiser's address), number (numeric comparison), passkey (the one it typed)
"""
import argparse
import asyncio
import json
import sys
import time

from bumble import hci
from bumble.att import ATT_Error
from bumble.core import UUID, BaseError
from bumble.device import Device, Peer
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.smp import OobContext, OobLegacyContext, OobSharedData
from bumble.transport import open_transport

from bumble_scan import find

from bumble_security import PROTECTED_CHARACTERISTIC_UUID, encryption_key_size, key_is_authenticated, open_keystore


IO_CAPABILITIES = {
    "just-works": PairingDelegate.IoCapability.NO_OUTPUT_NO_INPUT,
    "passkey": PairingDelegate.IoCapability.KEYBOARD_INPUT_ONLY,
    "numeric-comparison": PairingDelegate.IoCapability.DISPLAY_OUTPUT_AND_YES_NO_INPUT,
    "oob": PairingDelegate.IoCapability.NO_OUTPUT_NO_INPUT,
}


def describe(error: BaseException) -> str:
    """Bumble's protocol errors by name (PASSKEY_ENTRY_FAILED, PIN_OR_KEY_MISSING_ERROR, ...)."""
    if isinstance(error, BaseError) and error.error_name:
        code = f" (0x{error.error_code:02X})" if isinstance(error.error_code, int) else ""
        namespace = f"{error.error_namespace}: " if error.error_namespace else ""
        return f"{namespace}{error.error_name}{code}"
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


class Delegate(PairingDelegate):
    def __init__(self, io_capability, passkey: int | None, result: dict):
        super().__init__(io_capability=io_capability)
        self.passkey = passkey
        self.result = result

    async def confirm(self, auto: bool = False) -> bool:
        return True

    async def compare_numbers(self, number: int, digits: int) -> bool:
        self.result["number"] = f"{number:0{digits}d}"
        return True

    async def get_number(self) -> int | None:
        # None makes Bumble fail the pairing with PASSKEY_ENTRY_FAILED.
        if self.passkey is not None:
            self.result["passkey"] = f"{self.passkey:06d}"
        return self.passkey

    async def display_number(self, number: int, digits: int) -> None:
        self.result["displayed"] = f"{number:0{digits}d}"


async def read_by_uuid(connection, uuid: UUID) -> bytes:
    peer = Peer(connection)
    await peer.discover_services()
    for service in peer.services:
        await service.discover_characteristics()
        for characteristic in service.characteristics:
            if characteristic.uuid == uuid:
                return bytes(await characteristic.read_value())
    raise LookupError(f"no characteristic {uuid} on the peer")


async def run(args, device: Device, result: dict, phase: list) -> None:
    phase[0] = f"scanning for {args.name}"
    advertisement = await find(device, args.name, args.timeout)
    peer_address = advertisement.address
    result["peer"] = str(peer_address)

    phase[0] = f"connecting to {peer_address}"
    started = time.monotonic()
    connection = await device.connect(peer_address, own_address_type=hci.OwnAddressType.RANDOM)
    result["connect_ms"] = round((time.monotonic() - started) * 1000, 3)
    try:
        uuid = UUID(args.read_uuid)
        if args.read_first:
            phase[0] = "reading before pairing"
            try:
                result["unencrypted_read"] = (await read_by_uuid(connection, uuid)).hex()
            except ATT_Error as error:
                result["unencrypted_read"] = error.error_name

        stored = None if args.force_pair else await device.keystore.get(str(peer_address))
        if stored is not None:
            phase[0] = "encrypting with the stored keys"
            result["bonded_reconnect"] = True
            started = time.monotonic()
            try:
                await connection.encrypt()
            except BaseError as error:
                result["error"] = f"encryption with the stored keys failed: {describe(error)}"
                return
            result["encrypt_ms"] = round((time.monotonic() - started) * 1000, 3)
            result["authenticated"] = key_is_authenticated(stored)
            result["bonded"] = True
        else:
            phase[0] = "pairing"
            started = time.monotonic()
            try:
                await connection.pair()
            except BaseError as error:
                result["error"] = f"pairing failed: {describe(error)}"
                return
            finally:
                # The method is reported for a failed pairing too (the one that failed).
                session = device.smp_manager.sessions.get(connection.handle)
                if session is not None:
                    result["method"] = session.pairing_method.name
                    result["sc"] = bool(session.sc)
            result["pairing_ms"] = round((time.monotonic() - started) * 1000, 3)
            result["paired"] = True
            result["bonded"] = bool(session.bonding) if session is not None else None
            keys = await device.keystore.get(str(connection.peer_address))
            result["authenticated"] = key_is_authenticated(keys)
            if result["bonded"] is False and keys is not None:
                await device.keystore.delete(str(connection.peer_address))

        result["encrypted"] = bool(connection.is_encrypted)
        result["key_size"] = await encryption_key_size(device, connection)
        if not connection.is_encrypted:
            result["error"] = "the link is not encrypted"
            return

        phase[0] = f"reading {uuid}"
        try:
            result["value"] = (await read_by_uuid(connection, uuid)).hex()
        except ATT_Error as error:
            result["error"] = f"read failed: {error.error_name}"
        except LookupError as error:
            result["error"] = str(error)
    finally:
        if connection.handle in device.connections:
            phase[0] = "disconnecting"
            try:
                await asyncio.wait_for(connection.disconnect(), 2.0)
            except (asyncio.TimeoutError, BaseError):
                pass


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("transport")
    parser.add_argument("--name", required=True, help="the advertiser's local name")
    parser.add_argument("--method", choices=sorted(IO_CAPABILITIES), default="just-works")
    parser.add_argument("--passkey", type=int, help="the passkey to type (passkey method)")
    parser.add_argument("--legacy", action="store_true", help="LE legacy pairing (no Secure Connections)")
    parser.add_argument("--keystore", help="JSON key store file (kept across runs); in memory when not given")
    parser.add_argument("--read-uuid", default=PROTECTED_CHARACTERISTIC_UUID)
    parser.add_argument("--timeout", type=float, default=10.0, help="bound on the whole run, in seconds")
    parser.add_argument("--address", default="D0:D1:D2:D3:D4:D5", help="its own random static address")
    parser.add_argument("--force-pair", action="store_true", help="pair even when the key store holds keys for the peer")
    parser.add_argument("--read-first", action="store_true", help="also read the characteristic before pairing")
    parser.add_argument("--bonding", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--oob-c", help="the peripheral's SC OOB confirm value (hex)")
    parser.add_argument("--oob-r", help="the peripheral's SC OOB random value (hex)")
    parser.add_argument("--oob-tk", help="the legacy OOB TK (hex)")
    args = parser.parse_args()

    result = {"paired": False, "method": None, "sc": None, "bonded": None, "encrypted": False, "key_size": None,
              "authenticated": None, "value": None, "error": None, "pairing_ms": None, "bonded_reconnect": False,
              "encrypt_ms": None, "connect_ms": None, "peer": None}

    address = hci.Address(args.address, hci.Address.RANDOM_DEVICE_ADDRESS)
    if not address.is_static:
        parser.error(f"{args.address} is not a random static address (its two top bits must be 1)")
    if args.method == "passkey" and args.passkey is None:
        parser.error("--method passkey needs --passkey")
    oob = None
    if args.method == "oob":
        if args.legacy:
            if not args.oob_tk:
                parser.error("--method oob --legacy needs --oob-tk")
            oob = PairingConfig.OobConfig(our_context=None, peer_data=None,
                                          legacy_context=OobLegacyContext(tk=bytes.fromhex(args.oob_tk)))
        else:
            if not (args.oob_c and args.oob_r):
                parser.error("--method oob needs --oob-c and --oob-r")
            oob = PairingConfig.OobConfig(
                our_context=OobContext(),
                peer_data=OobSharedData(c=bytes.fromhex(args.oob_c), r=bytes.fromhex(args.oob_r)),
                legacy_context=None)

    phase = ["opening the transport"]
    transport = None
    try:
        async def session() -> None:
            nonlocal transport
            transport = await open_transport(args.transport)
            device = Device.with_hci("HIL-Bumble-SecureCentral", address, transport.source, transport.sink)
            device.keystore = open_keystore(args.keystore, str(address))
            delegate = Delegate(IO_CAPABILITIES[args.method], args.passkey, result)
            device.pairing_config_factory = lambda _connection: PairingConfig(
                sc=not args.legacy,
                mitm=args.method != "just-works",
                bonding=args.bonding,
                delegate=delegate,
                identity_address_type=PairingConfig.AddressType.RANDOM,
                oob=oob,
            )
            phase[0] = "powering on"
            await device.power_on()
            _ = device.smp_manager.ecc_key  # make the P-256 key now (~1 ms), outside pairing_ms
            await run(args, device, result, phase)

        await asyncio.wait_for(session(), args.timeout)
    except asyncio.TimeoutError:
        result["error"] = result["error"] or f"timed out after {args.timeout} s while {phase[0]}"
    except BaseError as error:
        result["error"] = result["error"] or f"{phase[0]}: {describe(error)}"
    except Exception as error:  # report, never hang or die without the JSON line
        result["error"] = result["error"] or f"{phase[0]}: {type(error).__name__}: {error}"
    finally:
        if transport is not None:
            try:
                await asyncio.wait_for(transport.close(), 1.0)
            except (asyncio.TimeoutError, Exception):
                pass
    print(json.dumps(result), flush=True)
    return 0 if result["error"] is None and result["encrypted"] and result["value"] is not None else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
