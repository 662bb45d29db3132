"""What the secure Bumble peers share (scripts/peers/bumble-secure-accessory.py and bumble-secure-central.py):
the protected characteristic's UUID, the key store, and what a link's keys and key size are."""
import os

from bumble import hci
from bumble.device import Device
from bumble.keys import JsonKeyStore, MemoryKeyStore, PairingKeys

PROTECTED_CHARACTERISTIC_UUID = "5a5e0002-6b1c-4d9e-9a5f-000000000001"


def open_keystore(path: str | None, namespace: str):
    if not path:
        return MemoryKeyStore()
    # Bumble's JsonKeyStore reads a missing file as empty but fails on a zero-length one.
    if os.path.exists(path) and os.path.getsize(path) == 0:
        with open(path, "w", encoding="utf-8") as file:
            file.write("{}\n")
    return JsonKeyStore(namespace, path)


def key_is_authenticated(keys: PairingKeys | None) -> bool:
    if keys is None:
        return False
    return any(key is not None and key.authenticated for key in (keys.ltk, keys.ltk_central, keys.ltk_peripheral))


async def encryption_key_size(device: Device, connection) -> int | None:
    """The link's key size: from the Encryption Change event when it carried one (v2), else from Read
    Encryption Key Size when the controller has it; None when neither (btvirt 5.66: v1 events only)."""
    if connection.encryption_key_size:
        return connection.encryption_key_size
    if device.host.supports_command(hci.HCI_READ_ENCRYPTION_KEY_SIZE_COMMAND):
        try:
            response = await device.send_sync_command(
                hci.HCI_Read_Encryption_Key_Size_Command(connection_handle=connection.handle))
            return response.key_size
        except Exception:
            return None
    return None
