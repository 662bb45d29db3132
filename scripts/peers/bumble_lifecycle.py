"""What the Bumble peer scripts here do around their work: advertise as an accessory, run until SIGTERM or
SIGINT, and close the transport without hanging on a peer that is gone."""
import asyncio
import signal

from bumble.core import AdvertisingData

# Heart Rate (0x180D) and Battery (0x180F), as a 16-bit service UUID list, little-endian.
HEART_RATE_AND_BATTERY = bytes([0x0F, 0x18, 0x0D, 0x18])


async def advertise(device, name: str, interval: int, service_uuids: bytes = HEART_RATE_AND_BATTERY) -> None:
    """Connectable legacy advertising of flags, the complete local name and 16-bit service UUIDs, restarted
    after each connection. The name must keep the data within 31 octets."""
    advertising = AdvertisingData([
        (AdvertisingData.FLAGS, bytes([0x06])),
        (AdvertisingData.COMPLETE_LOCAL_NAME, name.encode()),
        (AdvertisingData.INCOMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS, service_uuids),
    ])
    await device.start_advertising(advertising_data=bytes(advertising), auto_restart=True,
                                   advertising_interval_min=interval, advertising_interval_max=interval)


async def run_until_stopped() -> None:
    """Returns at SIGTERM or SIGINT."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()


async def close_quietly(transport) -> None:
    """Closes the transport within 1 s: Bumble's close can wait on a peer that is gone, which must never keep
    the process alive."""
    try:
        await asyncio.wait_for(transport.close(), 1.0)
    except (asyncio.TimeoutError, Exception):
        pass
