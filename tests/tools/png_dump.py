#!/usr/bin/env python3
"""Prints a grayscale PNG (8-bit, not interlaced, as SAVEPNG writes it) for FileCheck: a line
`PNG WIDTH x HEIGHT`, then one line per pixel row: `#` for black (0), `.` for white (255), and
the gray level in hex brackets, `[aa]`, for anything else. Standard library only (zlib).
With `--every K` (and `--from O`, default 0), only the pixels O, O + K, O + 2K, ... of each
direction are printed: `--every 52 --from 26` shows one pixel from the middle of each cell of a
picture that SAVEPNG enlarged to cells of 52 pixels, `--every 52` its grid lines.

usage: png_dump.py FILE.png [--every K [--from O]]
"""
import struct
import sys
import zlib


def unfilter(raw, width, height):
    rows, prev, pos = [], bytearray(width), 0
    for _ in range(height):
        kind, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + width])
        pos += 1 + width
        for i in range(width):
            left = line[i - 1] if i else 0
            up, upleft = prev[i], prev[i - 1] if i else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - upleft
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - upleft)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else upleft
                line[i] = (line[i] + pred) & 255
        rows.append(line)
        prev = line
    return rows


def main():
    args = sys.argv[1:]
    every, start = 1, 0
    if "--every" in args:
        every = int(args.pop(args.index("--every") + 1))
        args.remove("--every")
    if "--from" in args:
        start = int(args.pop(args.index("--from") + 1))
        args.remove("--from")
    data = open(args[0], "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("not a PNG file")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour != 0 or interlace != 0:
        sys.exit("not an 8-bit grayscale PNG (depth %d, colour type %d)" % (depth, colour))
    print("PNG %d x %d" % (width, height))
    for row in unfilter(zlib.decompress(idat), width, height)[start::every]:
        print("".join("#" if v == 0 else "." if v == 255 else "[%02x]" % v for v in row[start::every]))


main()
