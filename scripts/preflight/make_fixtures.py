#!/usr/bin/env python3
"""Regenerates the binary fixtures of Tests/PreflightTests/Fixtures with Python's standard library only.

They are made by a second, independent implementation (CPython's plistlib, zipfile and zlib) so that the
Swift readers are checked against data they did not write themselves:

  ios/Info-binary.plist      a binary plist (bplist00) of a realistic Info.plist
  ios/Sample.ipa             an IPA: Payload/Sample.app/Info.plist (binary, deflated) among other entries
  ios/NoApp.ipa              a zip with no Payload/*.app/Info.plist
  zip/corpus.zip             deflate at levels 0-9 over text, runs, random bytes, empty and large entries;
                             the expected contents are rebuilt by the test from the same recipes
  zip/zip64.zip              the same kind of archive with ZIP64 records forced on every entry
  zip/deflate-dynamic.bin    a raw deflate stream (dynamic Huffman) of corpus text, for Inflate alone

Run from the repository root:  python3 scripts/preflight/make_fixtures.py
Output is deterministic (fixed timestamps, seeded random data), so a rerun changes nothing.
"""
import os
import plistlib
import random
import zipfile
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "PreflightTests", "Fixtures")
DATE = (2024, 1, 2, 3, 4, 6)


def corpus_text():
    """Text with repetition at many distances: the recipe the Swift test rebuilds exactly."""
    lines = []
    for i in range(2000):
        lines.append(f"line {i}: <uses-permission android:name=\"android.permission.PERM_{i % 37}\"/> value={i * i % 1009}\n")
    return "".join(lines).encode()


def random_bytes(count, seed):
    """Linear congruential bytes: the Swift test uses the same generator."""
    state = seed
    out = bytearray()
    for _ in range(count):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        out.append((state >> 16) & 0xFF)
    return bytes(out)


def corpus_entries():
    text = corpus_text()
    return [
        ("stored.txt", text[:5000], zipfile.ZIP_STORED, None),
        ("level1.txt", text, zipfile.ZIP_DEFLATED, 1),
        ("level6.txt", text, zipfile.ZIP_DEFLATED, 6),
        ("level9.txt", text, zipfile.ZIP_DEFLATED, 9),
        ("runs.bin", b"a" * 70000 + b"b" * 3 + b"a" * 258, zipfile.ZIP_DEFLATED, 9),
        ("random.bin", random_bytes(40000, 7), zipfile.ZIP_DEFLATED, 9),
        ("empty.txt", b"", zipfile.ZIP_DEFLATED, 6),
        ("one.txt", b"x", zipfile.ZIP_DEFLATED, 6),
        ("dir/nested/name with spaces.txt", b"nested entry\n", zipfile.ZIP_DEFLATED, 6),
    ]


def write_zip(path, entries, force_zip64=False):
    saved = zipfile.ZIP64_LIMIT
    if force_zip64:
        zipfile.ZIP64_LIMIT = 0  # every size and offset is written in ZIP64 records
    try:
        with zipfile.ZipFile(path, "w") as archive:
            for name, data, method, level in entries:
                info = zipfile.ZipInfo(name, DATE)
                info.compress_type = method
                info.external_attr = 0o644 << 16
                archive.writestr(info, data, compress_type=method, compresslevel=level)
    finally:
        zipfile.ZIP64_LIMIT = saved


def info_plist():
    return {
        "CFBundleDevelopmentRegion": "en",
        "CFBundleExecutable": "Sample",
        "CFBundleIdentifier": "com.example.sample",
        "CFBundleName": "Sample",
        "CFBundlePackageType": "APPL",
        "CFBundleShortVersionString": "1.4.2",
        "CFBundleVersion": "87",
        "LSRequiresIPhoneOS": True,
        "MinimumOSVersion": "12.0",
        "UIDeviceFamily": [1, 2],
        "NSBluetoothAlwaysUsageDescription": "Sample connects to your heart-rate strap to record workouts.",
        "NSCameraUsageDescription": "Scan the QR code on the strap's box.",
        "UIBackgroundModes": ["bluetooth-central", "remote-notification"],
        "UIRequiredDeviceCapabilities": ["arm64", "bluetooth-le"],
        "UILaunchStoryboardName": "LaunchScreen",
        "UISupportedInterfaceOrientations": ["UIInterfaceOrientationPortrait"],
        "CFBundleIcons": {"CFBundlePrimaryIcon": {"CFBundleIconFiles": ["AppIcon60x60"], "CFBundleIconName": "AppIcon"}},
        "DTPlatformVersion": "17.2",
        "BuildMachineOSBuild": "23C71",
        "DTXcode": "1520",
        "SampleInteger": 1,
        "SampleReal": 2.5,
        "SampleData": b"\x00\x01\x02",
    }


def main():
    os.makedirs(os.path.join(ROOT, "ios"), exist_ok=True)
    os.makedirs(os.path.join(ROOT, "zip"), exist_ok=True)

    binary = plistlib.dumps(info_plist(), fmt=plistlib.FMT_BINARY, sort_keys=True)
    with open(os.path.join(ROOT, "ios", "Info-binary.plist"), "wb") as f:
        f.write(binary)

    write_zip(os.path.join(ROOT, "ios", "Sample.ipa"), [
        ("Payload/", b"", zipfile.ZIP_STORED, None),
        ("Payload/Sample.app/", b"", zipfile.ZIP_STORED, None),
        ("Payload/Sample.app/Sample", random_bytes(20000, 3), zipfile.ZIP_DEFLATED, 6),
        ("Payload/Sample.app/Info.plist", binary, zipfile.ZIP_DEFLATED, 9),
        ("Payload/Sample.app/en.lproj/InfoPlist.strings", "\"NSBluetoothAlwaysUsageDescription\" = \"Connects to your strap.\";\n".encode("utf-16"), zipfile.ZIP_DEFLATED, 6),
        ("Payload/Sample.app/PlugIns/Widget.appex/Info.plist", plistlib.dumps({"CFBundleIdentifier": "com.example.sample.widget"}), zipfile.ZIP_DEFLATED, 6),
        ("Payload/Sample.app/_CodeSignature/CodeResources", b"<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>", zipfile.ZIP_STORED, None),
        ("iTunesMetadata.plist", plistlib.dumps({"itemName": "Sample"}), zipfile.ZIP_DEFLATED, 6),
    ])
    write_zip(os.path.join(ROOT, "ios", "NoApp.ipa"), [
        ("Payload/readme.txt", b"no app here\n", zipfile.ZIP_DEFLATED, 6),
    ])

    write_zip(os.path.join(ROOT, "zip", "corpus.zip"), corpus_entries())
    write_zip(os.path.join(ROOT, "zip", "zip64.zip"), corpus_entries()[:4], force_zip64=True)

    compressor = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY)
    raw = compressor.compress(corpus_text()) + compressor.flush()
    with open(os.path.join(ROOT, "zip", "deflate-dynamic.bin"), "wb") as f:
        f.write(raw)


if __name__ == "__main__":
    main()
