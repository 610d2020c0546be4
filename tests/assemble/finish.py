#!/usr/bin/env python3
"""finish.py - what `jfrtool assemble` must write, worked out in Python from
the bytes, independently of libjfr (tests/assemble; doc/testing.md):

* JDK 27's rule (JDK-8391075): a chunk whose header state byte is not 0
  and whose header is consistent is copied up to the header's size, with
  the state byte set to 0;
* otherwise (the header being rewritten, state 255, or a size past the
  bytes there) the chunk ends at its last complete flush: the last
  checkpoint whose one pool is a 68-byte copy of the chunk header giving
  that checkpoint's end as the chunk size; that copy, state 0, is the
  header; no such checkpoint: the chunk is left out.

It also makes the damaged variants of the copied repository in
testdata/repository that tests/assemble/repository.sh and
tests/assemble/regen-jdk-assemble.sh use:

    finish.py variants OUTDIR      one folder per variant under OUTDIR
    finish.py expect OUT FILE...   what assembling FILE... gives, into OUT
    finish.py live IN OUT STATE    IN (one closed chunk) as a JVM leaves a
                                   chunk after a flush: a chunk-header
                                   checkpoint appended, state STATE (the
                                   fuzz seeds of tests/fuzz/corpus/assemble)
"""
import os
import shutil
import struct
import sys

HEADER = 68
REPOSITORY = os.path.join(os.environ.get("JFR_TESTDATA", "testdata"), "repository")


def varint(b, i):
    v = 0
    for k in range(9):
        if i >= len(b):
            raise IndexError("cut varint")
        x = b[i]
        i += 1
        if k == 8:
            return v | (x << 56), i
        v |= (x & 0x7F) << (7 * k)
        if x < 0x80:
            return v, i
    return v, i


def header(b):
    """(size, cp, metadata, state) of the chunk header at b[0:68]."""
    size, cp, meta = struct.unpack(">QQQ", b[8:32])
    return size, cp, meta, b[64]


def header_copy(b, at):
    """(end, copy) if the record at `at` is a chunk-header checkpoint whose
    68-byte copy says the chunk ends with it, else None."""
    try:
        size, i = varint(b, at)
        end = at + size
        if size == 0 or end > len(b):
            return None
        typ, i = varint(b, i)
        if typ != 1:
            return None
        for _ in range(3):           # start, duration, delta
            _, i = varint(b, i)
        flags, i = varint(b, i)
        pools, i = varint(b, i)
        _, i = varint(b, i)          # type id of jdk.types.ChunkHeader
        count, i = varint(b, i)
        _, i = varint(b, i)          # key
        length, i = varint(b, i)
    except IndexError:
        return None
    if not flags & 2 or pools < 1 or count != 1 or length != HEADER or i + HEADER > end:
        return None
    copy = b[i:i + HEADER]
    csize, ccp, cmeta, _ = header(copy)
    if copy[:4] != b"FLR\0" or csize != end or ccp != at or not HEADER <= cmeta < at:
        return None
    return end, copy


def last_flush(b):
    """(end, header) of the last complete flush, walking the records."""
    found, at = None, HEADER
    while at < len(b):
        try:
            size, _ = varint(b, at)
        except IndexError:
            break
        if size == 0 or at + size > len(b):
            break
        f = header_copy(b, at)
        if f:
            found = f
        at += size
    return found


def finish(chunk):
    """The bytes a copy of this chunk holds: itself when closed and whole,
    else finished; b"" when nothing in it is complete."""
    size, cp, _, state = header(chunk)
    if state == 0 and size == len(chunk):
        return chunk
    if state not in (0, 255) and size <= len(chunk):
        f = header_copy(chunk[:size], cp)
        if f and f[0] == size:
            return chunk[:64] + b"\0" + chunk[65:size]
    f = last_flush(chunk)
    if not f:
        return b""
    end, copy = f
    return copy[:64] + b"\0" + copy[65:] + chunk[HEADER:end]


def pvarint(v, width=0):
    """`v` as a varint, padded to `width` bytes."""
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v or (width and len(out) + 1 < width):
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def make_live(chunk, state):
    """The chunk with a flush appended: a chunk-header checkpoint whose copy
    says the chunk ends with it, and that copy as the header."""
    at = len(chunk)
    body = b"".join(pvarint(v) for v in (1, 0, 0, 0, 3, 1, 222, 1, 1, HEADER))
    size = at + 4 + len(body) + HEADER
    copy = bytearray(chunk[:HEADER])
    copy[8:24] = struct.pack(">QQ", size, at)
    copy[64] = state
    copy[66:68] = struct.pack(">H", 1)
    return bytes(copy) + chunk[HEADER:] + pvarint(4 + len(body) + HEADER, 4) + body + bytes(copy)


def files_of(folder):
    return [os.path.join(folder, n) for n in sorted(os.listdir(folder), key=os.fsencode)
            if n.endswith(".jfr")]


def variants(out):
    """Folders of chunk files: the repository as copied, and its live chunk
    (the last file) made into each case a copy can meet."""
    files = files_of(REPOSITORY)
    closed, live = files[:-1], open(files[-1], "rb").read()
    size, cp, meta, state = header(live)
    assert state not in (0, 255) and size == len(live), "the live chunk changed"
    flushes = []
    at = HEADER
    while at < size:
        n, _ = varint(live, at)
        if header_copy(live, at):
            flushes.append(at)
        at += n
    assert len(flushes) >= 2, "the live chunk needs two flushes"
    prev_cp = flushes[-2]
    prev_end = header_copy(live, prev_cp)[0]

    def torn():
        # the JVM marked the header (255) and rewrote the size, not yet the
        # offsets, when the file was copied
        b = bytearray(live)
        b[64] = 255
        b[16:24] = struct.pack(">Q", prev_cp)
        return bytes(b)

    def early():
        # a copy taken before the first flush: the header as the JVM opens a
        # chunk (size 68, no offsets, no duration, state 1) and what was
        # written before the first chunk-header checkpoint
        b = bytearray(live[:flushes[0]])
        b[8:32] = struct.pack(">QQQ", HEADER, 0, 0)
        b[40:48] = struct.pack(">Q", 0)
        b[64] = 1
        return bytes(b)

    first = open(closed[0], "rb").read()
    cases = {
        "as-copied": None,
        # bytes of a flush that was not finished after the last one
        "tail": live + live[HEADER:HEADER + 3000],
        "torn": torn(),
        # the copy ends inside the last flush
        "cut": live[:size - 50],
        "early": early(),
        # a closed chunk cut short: finished at its last flush too
        "closed-cut": None,
    }
    assert prev_end < size - 50
    for name, data in cases.items():
        d = os.path.join(out, name)
        os.makedirs(d)
        for f in closed:
            shutil.copy(f, d)
        target = os.path.join(d, os.path.basename(files[-1]))
        if name == "closed-cut":
            with open(os.path.join(d, os.path.basename(closed[0])), "wb") as fp:
                fp.write(first[:len(first) - 20])  # inside its last checkpoint
            data = live
        with open(target, "wb") as fp:
            fp.write(data if data is not None else live)


def expect(out, paths):
    with open(out, "wb") as fp:
        for p in paths:
            with open(p, "rb") as f:
                fp.write(finish(f.read()))


def main(argv):
    if len(argv) >= 3 and argv[1] == "variants":
        variants(argv[2])
    elif len(argv) >= 4 and argv[1] == "expect":
        expect(argv[2], argv[3:])
    elif len(argv) == 5 and argv[1] == "live":
        with open(argv[2], "rb") as f:
            data = make_live(f.read(), int(argv[4]))
        with open(argv[3], "wb") as f:
            f.write(data)
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
