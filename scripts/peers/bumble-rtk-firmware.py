#!/usr/bin/env python3
"""What Bumble's Realtek driver (bumble/drivers/rtk.py) would download from each rtl_bt/*_fw.bin, for the reference
check of `hil firmware inspect` (Tests/hilCommandTests/FirmwareInspectBumbleTests.swift).

    .venv/bin/python scripts/peers/bumble-rtk-firmware.py [FIRMWARE_DIR]

FIRMWARE_DIR holds rtl_bt/ (default: $HIL_FIRMWARE_DIR, else .build/firmware/lib/firmware, where
`scripts/install-deps --firmware` unpacks Debian's firmware-realtek). One JSON object a line, per file and per ROM
version the file has a patch for, made by Bumble's own code: its `Firmware` parser (project ID, version, patches),
its patch choice (the patch whose chip ID is the ROM version + 1, as `Driver.download_for_rtl8723b` picks it) and
its merge (the config appended). The config is the one Bumble's driver table names for the file, else the
<chip>_config.bin beside it, else the first <chip>_config-*.bin (the UART chips' ACPI-suffixed ones), else none.
A file Bumble cannot parse is one object with its error.
"""
import glob
import hashlib
import json
import math
import os
import sys
from importlib.metadata import version

from bumble.drivers import rtk


def config_for(firmware_path):
    directory, name = os.path.split(firmware_path)
    names = [info.config_name for info in rtk.Driver.DRIVER_INFOS if info.fw_name == name and info.config_name]
    stem = name.rsplit("_fw", 1)[0]
    names += [stem + "_config.bin"]
    names += sorted(os.path.basename(path) for path in glob.glob(os.path.join(directory, stem + "_config-*.bin")))
    for candidate in names:
        path = os.path.join(directory, candidate)
        if os.path.isfile(path):
            return path
    return None


def chip_name(project_id):
    try:
        return "RTL" + rtk.RtlProjectId(project_id).name.removeprefix("PROJECT_ID_")
    except ValueError:
        return None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("HIL_FIRMWARE_DIR", ".build/firmware/lib/firmware")
    files = sorted(glob.glob(os.path.join(root, "rtl_bt", "*_fw*.bin")))
    if not files:
        sys.exit(f"bumble-rtk-firmware: no rtl_bt/*_fw*.bin under {root} (scripts/install-deps --firmware)")
    for path in files:
        with open(path, "rb") as file:
            data = file.read()
        entry = {"file": path, "bumble": version("bumble"), "file_sha256": hashlib.sha256(data).hexdigest()}
        try:
            firmware = rtk.Firmware(data)
        except rtk.RtkFirmwareError as error:
            print(json.dumps(entry | {"error": str(error)}))
            continue
        config_path = config_for(path)
        config = b""
        if config_path:
            with open(config_path, "rb") as file:
                config = file.read()
        for chip_id in sorted({patch[0] for patch in firmware.patches if patch[0] >= 1}):
            rom_version = chip_id - 1
            # Bumble's choice: the first patch of chip ID ROM version + 1; its payload, the config appended.
            patch = next(patch for patch in firmware.patches if patch[0] == rom_version + 1)
            payload = patch[1] + config
            fragments = math.ceil(len(payload) / rtk.RTK_FRAGMENT_LENGTH)
            print(json.dumps(entry | {
                "rom_version": rom_version, "chip": chip_name(firmware.project_id), "project_id": firmware.project_id,
                "firmware_version": firmware.version, "config": config_path, "patch_length": len(patch[1]),
                "length": len(payload), "sha256": hashlib.sha256(payload).hexdigest(), "fragments": fragments,
            }))


main()
