#!/usr/bin/env python3
"""Writes the splash images the app shows first when it has no saved snapshot (strategies.snapshotFirst):
a vertical gradient in the theme's dark tones with a lighter rounded band where the display will be.
Deterministic (no timestamps); run from the repository root: python3 Fixtures/tools/make_splash.py"""
import struct
import zlib


def png(width, height, pixel):
    rows = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def splash(width, height):
    top, bottom = (38, 40, 48), (18, 19, 24)
    band_top, band_bottom = height * 0.08, height * 0.26
    def pixel(x, y):
        t = y / max(1, height - 1)
        color = [round(a + (b - a) * t) for a, b in zip(top, bottom)]
        margin = width * 0.06
        if band_top <= y <= band_bottom and margin <= x <= width - margin:
            color = [min(255, c + 22) for c in color]
        return color
    return png(width, height, pixel)


for path, size in [("Fixtures/default/assets/splash.png", (320, 480)), ("Fixtures/heavy/assets/splash@2x.png", (750, 1334))]:
    with open(path, "wb") as f:
        f.write(splash(*size))
