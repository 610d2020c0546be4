#!/usr/bin/env python3
"""containers.py - compressed input and damaged chunk headers (issue 16,
items 4-6; doc/robustness.md "Round two").

- Bombs: 1 GiB of zeros as gzip and as lz4 (64 MiB as xz and bzip2, when
  compiled in); a sound chunk header that
  declares 15 GiB, then zeros; a whole recording, then zeros. Each is
  answered in under 2 s (well under one normally) in under 200 MB, run
  under a 1 GiB address-space limit.
- A recording gzip-, lz4-, xz- or bzip2-compressed and cut at 80 % reads as
  the raw file
  cut where the decompressed output ends (same `summary`), with a warning;
  a compressed recording followed by junk reads whole, with a warning.
- Bad data in the middle of a gzip or lz4 recording: what comes before it
  reads as the raw file cut there, and the error names the byte of the
  compressed input where the bad data was found.
- Damaged chunk headers in a three-chunk recording (a destroyed magic on
  chunk 0 or 1, a chunk size 1000 bytes off either way or 2^40 too large
  on chunk 0 or 1):
  every other chunk is read, the message names the file, the chunk and the
  offset, and `--jobs 1` and `--jobs 4` agree for summary, view
  hot-methods and folded, raw and gzip-compressed."""
import bz2
import lzma
import os
import resource
import shutil
import struct
import subprocess
import sys
import time
import zlib

from robustlib import (chunks, fail, finish, read, sanitized, scratch, summary_counts,
                       write, JFRTOOL)

count = 0
BOMB_SECONDS = 2.0
BOMB_RSS_KB = 200 * 1024
BOMB_ADDRESS_SPACE = 1 << 30


def limited():
    if not sanitized():
        resource.setrlimit(resource.RLIMIT_AS, (BOMB_ADDRESS_SPACE, BOMB_ADDRESS_SPACE))


def run_measured(args, folder):
    """(status, stdout, stderr, seconds, max RSS in KiB) of jfrtool ARGS."""
    out_path, err_path = os.path.join(folder, "out"), os.path.join(folder, "err")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.monotonic()
        p = subprocess.Popen([JFRTOOL] + args, stdout=out, stderr=err,
                             preexec_fn=limited)
        deadline = start + 30
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                p.kill()
            time.sleep(0.01)
        seconds = time.monotonic() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    with open(out_path, "rb") as f:
        stdout = f.read()
    with open(err_path, "rb") as f:
        stderr = f.read().decode("utf-8", "replace")
    return p.returncode, stdout, stderr, seconds, usage.ru_maxrss


def jfrtool(args):
    global count
    count += 1
    p = subprocess.run([JFRTOOL] + args, capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


# ---- writers: gzip and lz4 frames, fast enough for a 1 GiB bomb ----------

def gzip_bytes(data):
    c = zlib.compressobj(6, zlib.DEFLATED, 31)
    return c.compress(data) + c.flush()


def gzip_bomb(prefix, zero_mib):
    """gzip of PREFIX then ZERO_MIB MiB of zeros: one fully flushed deflate
    segment of 1 MiB of zeros, repeated (the checksum is not written: the
    data is refused long before the trailer)."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = c.compress(prefix) + c.flush(zlib.Z_FULL_FLUSH)
    seg = c.compress(bytes(1 << 20)) + c.flush(zlib.Z_FULL_FLUSH)
    return (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + head + seg * zero_mib +
            b"\x03\x00" + bytes(8))


def xxh32(data, seed=0):
    p1, p2, p3, p4, p5 = 2654435761, 2246822519, 3266489917, 668265263, 374761393
    m = 0xffffffff
    assert len(data) < 16

    def rotl(x, r):
        return ((x << r) | (x >> (32 - r))) & m
    h = (seed + p5 + len(data)) & m
    i = 0
    while i + 4 <= len(data):
        h = (rotl((h + struct.unpack("<I", data[i:i + 4])[0] * p3) & m, 17) * p4) & m
        i += 4
    for b in data[i:]:
        h = (rotl((h + b * p5) & m, 11) * p1) & m
    h ^= h >> 15
    h = (h * p2) & m
    h ^= h >> 13
    h = (h * p3) & m
    return h ^ (h >> 16)


def lz4_frame(blocks):
    """An lz4 frame (independent 4 MiB blocks, no checksums) of BLOCKS,
    each (compressed bytes, is it compressed)."""
    desc = bytes([0x60, 0x70])
    out = [b"\x04\x22\x4d\x18", desc, bytes([(xxh32(desc) >> 8) & 0xff])]
    for data, compressed in blocks:
        out.append(struct.pack("<I", len(data) | (0 if compressed else 0x80000000)))
        out.append(data)
    out.append(bytes(4))
    return b"".join(out)


def lz4_stored(data):
    return [(data[i:i + (4 << 20)], False) for i in range(0, len(data), 4 << 20)]


def lz4_zero_block():
    """One lz4 block of 4 MiB of zeros: a literal, a match of offset 1 for
    all but the last five bytes, which are literals (lz4's end rule)."""
    n = 4 << 20
    rem = n - 1 - 5 - 4 - 15
    seq = bytes([0x1f, 0]) + b"\x01\x00" + b"\xff" * (rem // 255) + bytes([rem % 255])
    return (seq + bytes([0x50]) + bytes(5), True)


def lz4_bytes(data, folder):
    """The lz4 CLI's frame when it is installed (compressed blocks), else
    stored blocks."""
    if shutil.which("lz4"):
        src = write(folder, "lz4-in", data)
        subprocess.run(["lz4", "-q", "-f", src, src + ".lz4"], check=True)
        with open(src + ".lz4", "rb") as f:
            return f.read()
    return lz4_frame(lz4_stored(data))


# ---- bombs ---------------------------------------------------------------

def xz_bytes(data):
    return lzma.compress(data, format=lzma.FORMAT_XZ, preset=0)


def bzip2_bytes(data):
    """100 kB blocks: a cut keeps every block before it."""
    return bz2.compress(data, compresslevel=1)


def check_bomb(folder, name, data, want_status, want_text):
    global count
    count += 1
    path = write(folder, name, data)
    status, out, err, seconds, rss = run_measured(["summary", path], folder)
    what = "summary %s (%d bytes)" % (name, len(data))
    if status != want_status:
        fail("%s: exit status %s, expected %d: %s" % (what, status, want_status, err[-500:]))
    if want_text not in err:
        fail("%s: expected a message containing %r, got %r" % (what, want_text, err[-500:]))
    if seconds > BOMB_SECONDS:
        fail("%s: took %.2f s" % (what, seconds))
    if rss > BOMB_RSS_KB and not sanitized():
        fail("%s: used %d KiB" % (what, rss))


def bombs(folder):
    rec = read("multi-jdk25.jfr")
    header = bytearray(rec[:68])
    header[8:16] = struct.pack(">Q", 15 << 30)
    zero = lz4_zero_block()
    check_bomb(folder, "zeros.gz", gzip_bomb(b"", 1024), 2, "does not hold a JFR recording")
    check_bomb(folder, "zeros.lz4", lz4_frame([zero] * 256), 2,
               "does not hold a JFR recording")
    check_bomb(folder, "header-15g.gz", gzip_bomb(bytes(header), 1024), 2,
               "decompression stopped")
    check_bomb(folder, "header-15g.lz4",
               lz4_frame(lz4_stored(bytes(header)) + [zero] * 256), 2,
               "decompression stopped")
    check_bomb(folder, "recording-then-zeros.gz", gzip_bomb(rec, 1024), 0,
               "decompression stopped")
    check_bomb(folder, "recording-then-zeros.lz4",
               lz4_frame(lz4_stored(rec) + [zero] * 256), 0, "decompression stopped")
    # xz and bzip2 share the guard: 64 MiB of zeros is well past its 16 MiB
    zeros = bytes(64 << 20)
    for kind, pack in (("xz", xz_bytes), ("bz2", bzip2_bytes)):
        if kind not in FEATURES:
            continue
        check_bomb(folder, "zeros." + kind, pack(zeros), 2, "does not hold a JFR recording")
        check_bomb(folder, "header-15g." + kind, pack(bytes(header) + zeros), 2,
                   "decompression stopped")
        check_bomb(folder, "recording-then-zeros." + kind, pack(rec + zeros), 0,
                   "decompression stopped")


# ---- cut and junk --------------------------------------------------------

def output_length(err):
    """N of "... ends early (after N bytes of output)"."""
    mark = "ends early (after "
    if mark not in err:
        return None
    return int(err.split(mark, 1)[1].split(" ", 1)[0])


def same_as_raw(what, status, out, err, raw_path, want_text):
    rstatus, rout, rerr = jfrtool(["summary", raw_path])
    if (status, out) != (rstatus, rout):
        fail("%s: summary (exit %s) differs from the raw file's (exit %s)\n%s\n%s"
             % (what, status, rstatus, err[-500:], rerr[-500:]))
    if want_text not in err:
        fail("%s: expected a warning containing %r, got %r" % (what, want_text, err))


def cut_and_junk(folder, name):
    data = read(name)
    whole = write(folder, name, data)
    packers = [("gz", gzip_bytes(data)), ("lz4", lz4_bytes(data, folder))]
    packers += [(k, f(data)) for k, f in (("xz", xz_bytes), ("bz2", bzip2_bytes))
                if k in FEATURES]
    for kind, packed in packers:
        cut = write(folder, "%s.cut.%s" % (name, kind), packed[:len(packed) * 8 // 10])
        status, out, err = jfrtool(["summary", cut])
        n = output_length(err)
        if n is None:
            fail("summary %s: no 'ends early' warning: %r" % (cut, err))
            continue
        if n < chunks(data)[0][1]:
            fail("summary %s: only %d bytes decompressed, less than chunk 0" % (cut, n))
        raw = write(folder, "%s.cut%d" % (name, n), data[:n])
        same_as_raw("cut " + cut, status, out, err, raw, "ends early")
        if status != 0 or not summary_counts(out):
            fail("summary %s: exit %s, counts %r" % (cut, status, summary_counts(out)))
        junk = write(folder, "%s.junk.%s" % (name, kind), packed + b"not compressed data")
        status, out, err = jfrtool(["summary", junk])
        same_as_raw("junk " + junk, status, out, err, whole, "ignored")


# ---- bad data in the middle -----------------------------------------------

def bad_at(err, kind):
    """X and N of "bad KIND data at byte X of the input (after N bytes of
    output)", or None."""
    mark = "bad %s data at byte " % kind
    if mark not in err:
        return None
    words = err.split(mark, 1)[1].split()
    return int(words[0]), int(words[5])


def bad_in_middle(folder, name):
    """Bad data 60 % of the way in: every byte before it still reads (the
    summary of the raw file cut there), and the message places it in the
    compressed input. gzip: a fully flushed deflate stream, then a block of
    the reserved type. lz4: blocks of 64 KiB stored, one of them a
    compressed block that cannot decode, then the rest."""
    data = read(name)
    cut = len(data) * 6 // 10 // 65536 * 65536
    c = zlib.compressobj(6, zlib.DEFLATED, 31)
    good = c.compress(data[:cut]) + c.flush(zlib.Z_FULL_FLUSH)
    blocks = [(data[i:i + 65536], False) for i in range(0, cut, 65536)]
    lz4_good = len(lz4_frame(blocks)) - 4  # without the end mark
    blocks += [(b"\xff" * 64, True)] + lz4_stored(data[cut:])
    for kind, packed, where in (("gzip", good + b"\xff" * 64, len(good)),
                                ("lz4", lz4_frame(blocks), lz4_good)):
        path = write(folder, "%s.bad-middle.%s" % (name, kind), packed)
        status, out, err = jfrtool(["summary", path])
        placed = bad_at(err, kind)
        if placed is None:
            fail("summary %s: no 'bad %s data at byte' error: %r" % (path, kind, err))
            continue
        at, n = placed
        # the decoder stops at the bad block, or its data just after its header
        if not where <= at <= where + 4:
            fail("summary %s: bad data placed at byte %d, it starts at %d" % (path, at, where))
        if n != cut:
            fail("summary %s: %d bytes read before the bad data, %d are good" % (path, n, cut))
        raw = write(folder, "%s.cut%d" % (name, cut), data[:cut])
        same_as_raw("bad middle " + path, status, out, err, raw, "bad %s data" % kind)


# ---- damaged chunk headers -----------------------------------------------

def add(a, b):
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    return out


def damaged_headers(folder):
    name = "multi-jdk25.jfr"
    data = read(name)
    parts = chunks(data)
    if len(parts) != 3:
        fail("%s: expected 3 chunks, found %d" % (name, len(parts)))
        return
    alone = []
    for i, (p, s) in enumerate(parts):
        alone.append(summary_counts(jfrtool(["summary", write(folder, "c%d" % i,
                                                               data[p:p + s])])[1]))
    cases = []
    for k in (0, 1):
        pos = parts[k][0]
        b = bytearray(data)
        b[pos:pos + 4] = b"XXXX"
        cases.append(("magic%d" % k, bytes(b), [i for i in range(3) if i != k],
                      "chunk %d: no chunk header at offset %d" % (k, pos)))
        for delta in (1000, -1000, 1 << 40):
            b = bytearray(data)
            size = struct.unpack(">Q", b[pos + 8:pos + 16])[0] + delta
            b[pos + 8:pos + 16] = struct.pack(">Q", size)
            cases.append(("size%d%+d" % (k, delta), bytes(b), [0, 1, 2],
                          "chunk %d at offset %d declares %d bytes" % (k, pos, size)))
    for label, b, kept, message in cases:
        want = {}
        for i in kept:
            want = add(want, alone[i])
        for kind, packed in (("jfr", b), ("jfr.gz", gzip_bytes(b))):
            path = write(folder, "%s.%s" % (label, kind), packed)
            status, out, err = jfrtool(["summary", path])
            if status != 0 or summary_counts(out) != want:
                fail("summary %s: exit %s, counts differ from chunks %r read alone: %r"
                     % (path, status, kept, err))
            if "%s: %s" % (path, message) not in err:
                fail("summary %s: expected %r in %r" % (path, message, err))
            for cmd in (["summary"], ["view", "hot-methods"], ["folded"]):
                one = jfrtool(cmd + ["--jobs", "1", path])
                four = jfrtool(cmd + ["--jobs", "4", path])
                if one != four:
                    fail("%s %s: --jobs 1 and --jobs 4 differ" % (" ".join(cmd), path))


def features():
    """The optional inputs this jfrtool reads, from --version."""
    out = subprocess.run([JFRTOOL, "--version"], capture_output=True, text=True).stdout
    return {k for k, name in (("xz", "xz yes"), ("bz2", "bzip2 yes")) if name in out}


FEATURES = set()


def main():
    FEATURES.update(features())
    if {"xz", "bz2"} - FEATURES:
        print("note: no %s input compiled in: those cases skipped" %
              " or ".join(sorted({"xz", "bz2"} - FEATURES)))
    folder = scratch()
    bombs(folder)
    for name in ("multi-jdk25.jfr", "concat-17-25.jfr"):
        cut_and_junk(folder, name)
    bad_in_middle(folder, "multi-jdk25.jfr")
    damaged_headers(folder)
    finish("containers", count)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
