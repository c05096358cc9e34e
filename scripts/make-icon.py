"""Draws media/icon.png (128x128): a session tree with a branch, in plain Python (no image library)."""
import struct, zlib, math, sys

W = H = 128
BG = (30, 30, 46)
LINE = (137, 180, 250)
NODE = (166, 227, 161)
ACCENT = (249, 226, 175)
px = [[BG for _ in range(W)] for _ in range(H)]

def blend(c, a, x, y):
    if 0 <= x < W and 0 <= y < H:
        b = px[y][x]
        px[y][x] = tuple(int(b[i] * (1 - a) + c[i] * a) for i in range(3))

def disc(cx, cy, r, c):
    for y in range(int(cy - r - 2), int(cy + r + 3)):
        for x in range(int(cx - r - 2), int(cx + r + 3)):
            d = math.hypot(x + 0.5 - cx, y + 0.5 - cy)
            blend(c, max(0.0, min(1.0, r - d + 0.5)), x, y)

def seg(x0, y0, x1, y1, w, c):
    n = int(max(abs(x1 - x0), abs(y1 - y0)) * 2) + 1
    for i in range(n + 1):
        t = i / n
        disc(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, w / 2, c)

# rounded-square background
for y in range(H):
    for x in range(W):
        dx = max(0, abs(x + 0.5 - 64) - 48)
        dy = max(0, abs(y + 0.5 - 64) - 48)
        if math.hypot(dx, dy) > 14:
            px[y][x] = (0, 0, 0, 0)
seg(40, 26, 40, 102, 7, LINE)
for t in range(0, 31):
    a = t / 30
    x = 40 + 48 * a
    y = 50 + 22 * (1 - math.cos(math.pi * a)) / 2
    disc(x, y, 3.5, LINE)
disc(40, 26, 10, NODE)
disc(40, 64, 8, NODE)
disc(40, 102, 10, NODE)
disc(88, 72, 10, ACCENT)

raw = b"".join(b"\x00" + b"".join(bytes(p if len(p) == 4 else (*p, 255)) for p in row) for row in px)
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 6, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
open(sys.argv[1] if len(sys.argv) > 1 else "media/icon.png", "wb").write(png)
