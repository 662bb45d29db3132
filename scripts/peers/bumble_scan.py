"""Finding an advertiser by its local name with Google's Bumble (PyPI `bumble`); shared by the Bumble
centrals in this folder."""
import asyncio

from bumble.device import Device


async def find(device: Device, name: str, timeout: float, active: bool = True):
    """The first advertisement whose Complete or Shortened Local Name is `name`, within `timeout` seconds
    (asyncio.TimeoutError otherwise). Scanning stops either way."""
    found = asyncio.get_running_loop().create_future()

    def on_advertisement(advertisement):
        local_name = advertisement.data.get(0x09) or advertisement.data.get(0x08)
        if isinstance(local_name, (bytes, bytearray)):
            local_name = local_name.decode(errors="replace")
        if local_name == name and not found.done():
            found.set_result(advertisement)

    device.on("advertisement", on_advertisement)
    await device.start_scanning(active=active, filter_duplicates=False)
    try:
        return await asyncio.wait_for(found, timeout)
    finally:
        device.remove_listener("advertisement", on_advertisement)
        await device.stop_scanning()
