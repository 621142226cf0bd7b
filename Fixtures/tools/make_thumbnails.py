#!/usr/bin/env python3
"""Writes the `name@thumb.png` variants of Fixtures/heavy (for strategies.thumbnailsFirst): each is
its full image scaled down 8 times by averaging 8×8 boxes. Only the standard library; reads 8-bit
RGB or RGBA, non-interlaced PNGs (what make_assets.py writes for the backdrop). Deterministic.

    python3 Fixtures/tools/make_thumbnails.py
"""
import os
import struct
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FACTOR = 8


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    i, idat = 8, b""
    while i < len(data):
        (n,) = struct.unpack(">I", data[i:i + 4])
        kind, body = data[i + 4:i + 8], data[i + 8:i + 8 + n]
        i += 12 + n
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    assert depth == 8 and color in (2, 6) and interlace == 0, f"{path}: needs 8-bit RGB(A), not interlaced"
    channels = 3 if color == 2 else 4
    raw, stride = zlib.decompress(idat), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        kind, row = line[0], bytearray(line[1:])
        for x in range(stride):
            a = row[x - channels] if x >= channels else 0
            b = previous[x]
            c = previous[x - channels] if x >= channels else 0
            if kind == 1: row[x] = (row[x] + a) & 255
            elif kind == 2: row[x] = (row[x] + b) & 255
            elif kind == 3: row[x] = (row[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[x] = (row[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(row)
        previous = row
    return width, height, channels, rows


def write_png(path, width, height, channels, rows):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    raw = b"".join(b"\x00" + bytes(row) for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 2 if channels == 3 else 6, 0, 0, 0)
    with open(path, "wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def thumbnail(source, target):
    width, height, channels, rows = read_png(source)
    w, h = width // FACTOR, height // FACTOR
    out = []
    for ty in range(h):
        row = bytearray()
        for tx in range(w):
            for ch in range(channels):
                total = sum(rows[ty * FACTOR + dy][(tx * FACTOR + dx) * channels + ch] for dy in range(FACTOR) for dx in range(FACTOR))
                row.append((total + FACTOR * FACTOR // 2) // (FACTOR * FACTOR))
        out.append(row)
    write_png(target, w, h, channels, out)


if __name__ == "__main__":
    assets = os.path.join(ROOT, "heavy", "assets")
    thumbnail(os.path.join(assets, "backdrop@2x.png"), os.path.join(assets, "backdrop@thumb.png"))
