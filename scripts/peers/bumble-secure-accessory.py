#!/usr/bin/env python3
"""A BLE accessory that requires security, played by Google's Bumble (PyPI `bumble` 0.0.236): the peer for
interop tests of our SMP (pairing) implementation.

It attaches to a controller (btvirt's Unix socket, Rootcanal's TCP port, ...), takes the random static
identity address it is given, serves the Battery service plus a "protected" service whose characteristic
can be read only over an encrypted link (and, with --mitm, only over a link whose key came from an
authenticated pairing method), accepts pairing with the method asked for, keeps its keys in a JSON key
store when one is named, and advertises (legacy advertising: flags + name) until SIGTERM/SIGINT.

    bumble-secure-accessory.py TRANSPORT --name NAME --address RANDOM_STATIC_ADDR
        --method {just-works,passkey,numeric-comparison,oob} [--passkey 123456] [--legacy]
        [--keystore FILE] [--mitm] [--bonding | --no-bonding] [--security-request] [--reject]

Methods (the IO capability it announces; the method Bumble then picks also depends on the central's):
    just-works           NoInputNoOutput
    passkey              DisplayOnly: the accessory displays --passkey (random when not given), the
                         central types it in
    numeric-comparison   DisplayYesNo, answers "yes" to the comparison (Secure Connections only; with
                         --legacy the spec's table gives Just Works)
    oob                  NoInputNoOutput plus OOB data printed on the `OOB` line: Secure Connections
                         prints its confirm and random values (the central needs them, this side takes
                         none), --legacy prints the TK both sides must hold

Standard output, one line per event, flushed:
    OOB <c-hex> <r-hex>  |  OOB-TK <tk-hex>    --method oob only, before READY: the bytes as Bumble puts
                                               them in AD types 0x22/0x23 (0x10 for the TK)
    READY <address>                            advertising, ready for a central
    CONNECTED <peer>
    PASSKEY <6 digits>                         the passkey it displays
    NUMBER <6 digits>                          the numeric-comparison value it confirms
    PAIRED <peer> <method> <sc|legacy> <bonded|not-bonded>
                                               method as Bumble names it: JUST_WORKS, PASSKEY,
                                               NUMERIC_COMPARISON, OOB; peer is the identity address
    PAIRING-FAILED <reason>                    Bumble's SMP reason name. A wrong passkey, a wrong OOB value
                                               and a refused comparison all give CONFIRM_VALUE_FAILED in
                                               Bumble 0.0.236 (PASSKEY_ENTRY_FAILED only when a delegate
                                               declines to type one, never NUMERIC_COMPARISON_FAILED)
    KEY-MISSING <peer>                         a central asked to encrypt with a key this side lacks
                                               (LTK Request Negative Reply sent)
    ENCRYPTED <peer> <key-size>                "unknown" key size when the controller does not say (btvirt
                                               5.66: v1 Encryption Change, no Read Encryption Key Size);
                                               its order against PAIRED is not fixed
    ENCRYPTION-FAILED <peer> <0xNN> <name>
    DISCONNECTED <0xNN> <name>                 HCI reason
Addresses are Bumble's strings: a random address is printed bare, a public one with a "/P" suffix.

Keys: the key store's namespace is this accessory's own (random static) address, not the controller's
public address that Bumble's JsonKeyStore.from_device would take: btvirt gives each connection a slot
address, so that namespace would change across restarts. Inside it, keys are keyed by the peer's identity
address. The identity this side distributes is its random static address (Bumble would distribute the
controller's public address when there is one). Bumble stores a pairing's keys even when bonding was not
agreed; with --no-bonding (or a central that does not bond) this script deletes them after the PAIRED
line. LTK requests are answered by this script, not Bumble's Device.get_long_term_key, which answers a
bonded legacy reconnect with the wrong key (see long_term_key_provider).
"""
import argparse
import asyncio
import sys

from bumble import hci
from bumble.att import ATT_Error, ErrorCode as AttErrorCode
from bumble.core import UUID, AdvertisingData
from bumble.device import Device
from bumble.gatt import Characteristic, CharacteristicValue, Service
from bumble.keys import PairingKeys
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.profiles.battery_service import BatteryService
from bumble.smp import ErrorCode as SmpErrorCode, OobContext, OobLegacyContext
from bumble.transport import open_transport

from bumble_security import PROTECTED_CHARACTERISTIC_UUID, encryption_key_size, key_is_authenticated, open_keystore
from bumble_lifecycle import close_quietly, run_until_stopped

PROTECTED_SERVICE_UUID = "5a5e0001-6b1c-4d9e-9a5f-000000000001"
SECRET = b"secret-42"

IO_CAPABILITIES = {
    "just-works": PairingDelegate.IoCapability.NO_OUTPUT_NO_INPUT,
    "passkey": PairingDelegate.IoCapability.DISPLAY_OUTPUT_ONLY,
    "numeric-comparison": PairingDelegate.IoCapability.DISPLAY_OUTPUT_AND_YES_NO_INPUT,
    "oob": PairingDelegate.IoCapability.NO_OUTPUT_NO_INPUT,
}


def emit(*parts) -> None:
    print(" ".join(str(part) for part in parts), flush=True)


def hci_reason(code: int) -> str:
    return f"0x{code:02X} {hci.HCI_Constant.error_name(code)}"


def stored_long_term_key(keys: PairingKeys | None, rand: bytes, ediv: int) -> bytes | None:
    """The key a peripheral answers an LTK request with: the SC LTK, or the legacy LTK it distributed itself
    (Bumble's `ltk_central`: the key for links where the pairing's central is central) if EDIV/Rand match."""
    if keys is None:
        return None
    if keys.ltk is not None:
        return keys.ltk.value
    own = keys.ltk_central
    if own is not None and own.value and (own.ediv or 0) == ediv and (own.rand or bytes(8)) == rand:
        return own.value
    return None


class Delegate(PairingDelegate):
    """Answers for the accessory's side of pairing: shows the fixed passkey, says yes to comparisons
    (no to everything with --reject)."""

    def __init__(self, io_capability, passkey: int | None, reject: bool):
        super().__init__(io_capability=io_capability)
        self.passkey = passkey
        self.reject = reject

    async def accept(self) -> bool:
        return True

    async def confirm(self, auto: bool = False) -> bool:
        return not self.reject

    async def compare_numbers(self, number: int, digits: int) -> bool:
        emit("NUMBER", f"{number:0{digits}d}")
        return not self.reject

    async def generate_passkey(self) -> int:
        if self.passkey is not None:
            return self.passkey
        return await super().generate_passkey()

    async def display_number(self, number: int, digits: int) -> None:
        emit("PASSKEY", f"{number:0{digits}d}")

    async def get_number(self) -> int | None:
        # Only asked when both sides could type (KeyboardOnly on both); this accessory never announces that.
        return self.passkey


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("transport")
    parser.add_argument("--name", default="HIL-Secure")
    parser.add_argument("--address", default="F2:F1:F2:F3:F4:F5", help="random static identity address")
    parser.add_argument("--method", choices=sorted(IO_CAPABILITIES), default="just-works")
    parser.add_argument("--passkey", type=int, help="the passkey to display (0...999999); random when not given")
    parser.add_argument("--legacy", action="store_true", help="LE legacy pairing (no Secure Connections)")
    parser.add_argument("--keystore", help="JSON key store file (kept across runs); in memory when not given")
    parser.add_argument("--mitm", action="store_true",
                        help="the protected value also needs a key from an authenticated (MITM) pairing")
    parser.add_argument("--bonding", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--security-request", action="store_true",
                        help="send an SMP Security Request as soon as a central connects")
    parser.add_argument("--reject", action="store_true",
                        help="answer no to Just Works confirmation and numeric comparison")
    parser.add_argument("--battery", type=int, default=87)
    parser.add_argument("--interval", type=float, default=50.0, help="advertising interval in ms")
    args = parser.parse_args()

    address = hci.Address(args.address, hci.Address.RANDOM_DEVICE_ADDRESS)
    if not address.is_static:
        parser.error(f"{args.address} is not a random static address (its two top bits must be 1)")
    if args.passkey is not None and not 0 <= args.passkey <= 999999:
        parser.error("--passkey must be within 0...999999")

    transport = await open_transport(args.transport)
    try:
        device = Device.with_hci(args.name, address, transport.source, transport.sink)
        # Our own namespace (the identity address), not the controller's public slot address.
        device.keystore = open_keystore(args.keystore, str(address))

        oob = None
        if args.method == "oob":
            if args.legacy:
                oob = PairingConfig.OobConfig(our_context=None, peer_data=None, legacy_context=OobLegacyContext())
            else:
                oob = PairingConfig.OobConfig(our_context=OobContext(), peer_data=None, legacy_context=None)
        delegate = Delegate(IO_CAPABILITIES[args.method], args.passkey, args.reject)
        device.pairing_config_factory = lambda _connection: PairingConfig(
            sc=not args.legacy,
            mitm=args.method != "just-works" or args.mitm,
            bonding=args.bonding,
            delegate=delegate,
            # Bumble distributes the controller's public address as the identity when there is one
            # (btvirt's changes with the slot); the random static address is the stable identity.
            identity_address_type=PairingConfig.AddressType.RANDOM,
            oob=oob,
        )

        # Whether each link's key came from an authenticated pairing (checked for --mitm), by handle.
        authenticated_links: dict[int, bool] = {}

        async def link_is_authenticated(connection) -> bool:
            if connection.handle in authenticated_links:
                return authenticated_links[connection.handle]
            return key_is_authenticated(await device.keystore.get(str(connection.peer_address)))

        async def read_protected(connection) -> bytes:
            # Bumble checks encryption (READ_REQUIRES_ENCRYPTION) before this is called, but its
            # READ_REQUIRES_AUTHENTICATION only asks whether the link is encrypted or was paired at all;
            # a Just Works key passes it. So --mitm checks the key's own flag here.
            if args.mitm and not await link_is_authenticated(connection):
                raise ATT_Error(AttErrorCode.INSUFFICIENT_AUTHENTICATION)
            return SECRET

        permissions = Characteristic.Permissions.READABLE | Characteristic.Permissions.READ_REQUIRES_ENCRYPTION
        if args.mitm:
            permissions |= Characteristic.Permissions.READ_REQUIRES_AUTHENTICATION
        device.add_services([
            BatteryService(lambda _connection: args.battery),
            Service(PROTECTED_SERVICE_UUID, [
                Characteristic(PROTECTED_CHARACTERISTIC_UUID, Characteristic.Properties.READ, permissions,
                               CharacteristicValue(read=read_protected)),
            ]),
        ])

        # Answers the controller's LTK requests. Bumble 0.0.236's own lookup (Device.get_long_term_key) gives a
        # peripheral the wrong key after LE legacy pairing: it answers with `ltk_peripheral`, the key the
        # *central* distributed, while the central encrypts with the one the peripheral distributed
        # (`ltk_central` in Bumble's naming), so a bonded legacy reconnect fails (btvirt: Encryption Change
        # status 0x05). This one takes the pairing session's key first (STK/LTK during pairing), then the
        # stored SC LTK, then the legacy key this side distributed when EDIV and Rand match; and reports
        # the requests it cannot answer (a central holding a bond this side does not have).
        async def long_term_key_provider(handle: int, rand: bytes, ediv: int):
            connection = device.lookup_connection(handle)
            if connection is None:
                emit("KEY-MISSING", f"handle-0x{handle:04X}")
                return None
            try:
                key = device.smp_manager.get_long_term_key(connection, rand, ediv)
            except AttributeError:  # a session that failed before it had a key
                key = None
            if key is None:
                key = stored_long_term_key(await device.keystore.get(str(connection.peer_address)), rand, ediv)
            if key is None:
                emit("KEY-MISSING", connection.peer_address)
            return key

        device.host.long_term_key_provider = long_term_key_provider

        def on_connection(connection) -> None:
            emit("CONNECTED", connection.peer_address)

            def on_pairing(keys: PairingKeys) -> None:
                session = device.smp_manager.sessions.get(connection.handle)
                method = session.pairing_method.name if session else "UNKNOWN"
                sc = session.sc if session else bool(keys.ltk)
                bonded = bool(session.bonding) if session else args.bonding
                authenticated_links[connection.handle] = key_is_authenticated(keys)
                emit("PAIRED", connection.peer_address, method, "sc" if sc else "legacy",
                     "bonded" if bonded else "not-bonded")
                if not bonded:
                    asyncio.ensure_future(forget(str(connection.peer_address)))

            def on_pairing_failure(reason: int) -> None:
                try:
                    name = SmpErrorCode(reason).name
                except ValueError:
                    name = f"0x{reason:02X}"
                emit("PAIRING-FAILED", name)

            async def report_encryption() -> None:
                size = await encryption_key_size(device, connection)
                emit("ENCRYPTED", connection.peer_address, "unknown" if size is None else size)

            def on_encryption_change() -> None:
                if connection.encryption:
                    asyncio.ensure_future(report_encryption())

            def on_encryption_failure(error: int) -> None:
                emit("ENCRYPTION-FAILED", connection.peer_address, hci_reason(error))

            def on_disconnection(reason: int) -> None:
                authenticated_links.pop(connection.handle, None)
                emit("DISCONNECTED", hci_reason(reason))

            connection.on(connection.EVENT_PAIRING, on_pairing)
            connection.on(connection.EVENT_PAIRING_FAILURE, on_pairing_failure)
            connection.on(connection.EVENT_CONNECTION_ENCRYPTION_CHANGE, on_encryption_change)
            connection.on(connection.EVENT_CONNECTION_ENCRYPTION_FAILURE, on_encryption_failure)
            connection.on(connection.EVENT_DISCONNECTION, on_disconnection)
            if args.security_request:
                connection.request_pairing()

        async def forget(peer: str) -> None:
            try:
                await device.keystore.delete(peer)
            except KeyError:
                pass

        device.on(device.EVENT_CONNECTION, on_connection)
        await device.power_on()
        _ = device.smp_manager.ecc_key  # make the P-256 key now (~1 ms), not during the first pairing

        if oob is not None:
            if oob.our_context is not None:
                shared = oob.our_context.share()
                emit("OOB", shared.c.hex(), shared.r.hex())
            else:
                emit("OOB-TK", oob.legacy_context.tk.hex())

        advertising = AdvertisingData([
            (AdvertisingData.FLAGS, bytes([0x06])),
            (AdvertisingData.COMPLETE_LOCAL_NAME, args.name.encode()),
            (AdvertisingData.INCOMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS, bytes([0x0F, 0x18])),
        ])
        scan_response = AdvertisingData([
            (AdvertisingData.INCOMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS,
             UUID(PROTECTED_SERVICE_UUID).to_bytes(force_128=True)),
        ])
        # Device.start_advertising is legacy advertising (legacy PDUs even through extended commands).
        await device.start_advertising(advertising_data=bytes(advertising), scan_response_data=bytes(scan_response),
                                       auto_restart=True, advertising_interval_min=args.interval,
                                       advertising_interval_max=args.interval)
        emit("READY", device.random_address)
        await run_until_stopped()
    finally:
        await close_quietly(transport)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
