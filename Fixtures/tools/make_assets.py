#!/usr/bin/env python3
"""Regenerates the PNG assets and the generated XML of Fixtures/default and Fixtures/heavy.

Run by hand (needs Pillow and the DejaVu fonts); the outputs are committed, so neither
launchprof nor its tests need Python. Output is deterministic (fixed seeds, no time stamps).

    python3 Fixtures/tools/make_assets.py
"""
import os
import random

from PIL import Image, ImageDraw, ImageFont

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FONT_DIR = "/usr/share/fonts/truetype/dejavu"
# Printable ASCII, then the calculator symbols the themes use.
CHARS = "".join(chr(c) for c in range(32, 127)) + "×÷±−√∛π²³ʸˣ⁻¹"


def font_atlas(path, font_file, size, columns=16, mode="LA"):
    """A monospaced glyph atlas: white glyphs, coverage in alpha, one cell per character in CHARS order."""
    font = ImageFont.truetype(os.path.join(FONT_DIR, font_file), size)
    ascent, descent = font.getmetrics()
    cell_w = int(font.getlength("M") + 0.999)
    cell_h = ascent + descent
    rows = (len(CHARS) + columns - 1) // columns
    coverage = Image.new("L", (columns * cell_w, rows * cell_h), 0)
    draw = ImageDraw.Draw(coverage)
    for i, ch in enumerate(CHARS):
        x, y = (i % columns) * cell_w, (i // columns) * cell_h
        draw.text((x, y), ch, font=font, fill=255)
    white = Image.new("L", coverage.size, 255)
    if mode == "LA":
        atlas = Image.merge("LA", (white, coverage))
    else:
        atlas = Image.merge("RGBA", (white, white, white, coverage))
    atlas.save(path, optimize=False)
    return cell_w, cell_h, columns


def backspace_icon(path, size):
    """A palette PNG with a transparent background (tRNS): colour type 3."""
    s = size / 24.0
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    pts = [(2 * s, 12 * s), (8 * s, 5 * s), (22 * s, 5 * s), (22 * s, 19 * s), (8 * s, 19 * s)]
    d.polygon(pts, outline=(255, 255, 255, 255), width=max(1, int(2 * s)))
    d.line([(11 * s, 9 * s), (17 * s, 15 * s)], fill=(255, 255, 255, 255), width=max(1, int(2 * s)))
    d.line([(17 * s, 9 * s), (11 * s, 15 * s)], fill=(255, 255, 255, 255), width=max(1, int(2 * s)))
    pal = img.convert("P", palette=Image.ADAPTIVE, colors=4)
    # Make the palette entry of the (transparent) corner pixel transparent.
    pal.info["transparency"] = pal.getpixel((0, 0))
    pal.save(path, transparency=pal.getpixel((0, 0)))


def noise_texture(path, size, seed, sixteen_bit=False):
    """A grey noise texture: colour type 0, 8-bit (or 16-bit)."""
    rng = random.Random(seed)
    img = Image.new("L", (size, size))
    img.putdata([128 + rng.randint(-24, 24) for _ in range(size * size)])
    if sixteen_bit:
        img = img.point(lambda v: v * 257, mode="I").convert("I;16")
    img.save(path)


def logo(path, size):
    """An RGB gradient badge with alpha: colour type 6."""
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    for y in range(size):
        t = y / max(1, size - 1)
        d.line([(0, y), (size, y)], fill=(int(255 * (1 - t) + 80 * t), int(160 * (1 - t) + 40 * t), 40, 255))
    mask = Image.new("L", (size, size), 0)
    ImageDraw.Draw(mask).ellipse([0, 0, size - 1, size - 1], fill=255)
    img.putalpha(mask)
    img.save(path)


def default_assets():
    d = os.path.join(ROOT, "default", "assets")
    os.makedirs(d, exist_ok=True)
    print("default label font", font_atlas(os.path.join(d, "font-label.png"), "DejaVuSansMono-Bold.ttf", 20))
    print("default display font", font_atlas(os.path.join(d, "font-display.png"), "DejaVuSansMono.ttf", 40))
    backspace_icon(os.path.join(d, "icon-backspace.png"), 24)
    noise_texture(os.path.join(d, "texture.png"), 64, seed=1)


def heavy_assets():
    d = os.path.join(ROOT, "heavy", "assets")
    os.makedirs(d, exist_ok=True)
    print("heavy label font @1x", font_atlas(os.path.join(d, "font-label.png"), "DejaVuSansMono-Bold.ttf", 16))
    print("heavy label font @2x", font_atlas(os.path.join(d, "font-label@2x.png"), "DejaVuSansMono-Bold.ttf", 32, mode="RGBA"))
    print("heavy display font @2x", font_atlas(os.path.join(d, "font-display@2x.png"), "DejaVuSansMono.ttf", 80, mode="RGBA"))
    backspace_icon(os.path.join(d, "icon-backspace.png"), 24)
    backspace_icon(os.path.join(d, "icon-backspace@2x.png"), 48)
    noise_texture(os.path.join(d, "texture@2x.png"), 256, seed=2, sixteen_bit=True)
    logo(os.path.join(d, "logo@2x.png"), 96)
    # A large photo-like backdrop, so decoding has real work to do.
    rng = random.Random(3)
    img = Image.new("RGB", (750, 1334))
    px = [(int(20 + 30 * (y / 1334)) + rng.randint(0, 6), 24 + rng.randint(0, 6), int(40 + 40 * (x / 750)) + rng.randint(0, 6))
          for y in range(1334) for x in range(750)]
    img.putdata(px)
    img.save(os.path.join(d, "backdrop@2x.png"))


if __name__ == "__main__":
    default_assets()
    heavy_assets()
