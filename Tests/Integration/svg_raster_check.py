#!/usr/bin/env python3
"""Rasterises a launchprof SVG timeline with rsvg-convert and checks the picture is a real timeline:
the right size, mostly white background, many distinct colours, the phase colours present, and
something drawn across the width.

    python3 Tests/Integration/svg_raster_check.py TIMELINE.svg OUT.png
"""
import struct
import subprocess
import sys
import zlib


def fail(message):
    print(f"svg: FAIL: {message}")
    sys.exit(1)


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("rsvg-convert did not write a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", chunk[:10])
            if depth != 8 or color not in (2, 6):
                fail(f"unexpected PNG format: depth {depth}, colour type {color}")
            channels = 4 if color == 6 else 3
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b, c = prev[x], prev[x - channels] if x >= channels else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def main():
    svg, png = sys.argv[1], sys.argv[2]
    subprocess.run(["rsvg-convert", "--format=png", "--output", png, svg], check=True)
    width, height, channels, rows = read_png(png)
    if width != 1200 or height < 200:
        fail(f"picture is {width}x{height}, expected 1200 wide and at least 200 tall")
    colours, white, columns_drawn = {}, 0, set()
    for y, row in enumerate(rows):
        for x in range(width):
            px = row[x * channels:x * channels + 3]
            colours[px] = colours.get(px, 0) + 1
            if px == b"\xff\xff\xff":
                white += 1
            else:
                columns_drawn.add(x)
    total = width * height
    if white < total * 0.5:
        fail(f"only {white * 100 // total}% white: the background did not render")
    if len(colours) < 30:
        fail(f"only {len(colours)} distinct colours: the timeline is nearly empty")
    phase_colours = {"cpu": (0x5b, 0x8f, 0xd1), "draw": (0xa6, 0x6c, 0xc1), "decode": (0x6c, 0xae, 0x4a), "io": (0xe3, 0x9b, 0x2d)}
    for name, rgb in phase_colours.items():
        if colours.get(bytes(rgb), 0) < 20:
            fail(f"no {name} bars ({rgb}) in the picture")
    if len(columns_drawn) < width * 0.8:
        fail("the drawing does not span the width of the timeline")
    print(f"svg: OK: rasterised {width}x{height}, {len(colours)} colours, every phase kind drawn")


if __name__ == "__main__":
    main()
