#!/usr/bin/env python3
"""The GIL is released while libjfr decodes (issue 13): cffi releases it
around every call into the library, ABI mode included. While one thread
is inside a long C call (opening a large gzip recording decompresses it
whole), another thread keeps running Python code; two threads profiling
two recordings are timed against one after the other and reported, not
asserted: on a busy machine any timing can lose (tests/bench/python-bench.py
measures the scaling)."""

import gzip
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jfrtest  # noqa: E402

jfr = jfrtest.setup()
with open(os.path.join(jfrtest.testdata(), "recordings", "cpu-jdk25.jfr"), "rb") as f:
    one = f.read()
big = one * 60  # concatenated recordings are one valid recording of 60 chunks
packed = gzip.compress(big, 1)


def probe(call):
    """Run call() in a thread; meanwhile count in this one. Returns the
    call's duration and the longest stretch without a count."""
    stamps, done = [], threading.Event()
    t = threading.Thread(target=lambda: (call(), done.set()))
    t0 = time.perf_counter()
    t.start()
    while not done.is_set():
        stamps.append(time.perf_counter())
    t.join()
    t1 = time.perf_counter()
    gaps = [b - a for a, b in zip([t0] + stamps, stamps + [t1])]
    return t1 - t0, max(gaps), len(stamps)


for attempt in range(3):
    took, gap, counts = probe(lambda: jfr.open(packed).close())
    if took > 0.05:
        break
    packed = gzip.compress(big * 2, 1)
    big *= 2
print("open of %d MB gzip: %.3f s; the other thread counted %d times, longest pause %.3f s"
      % (len(big) >> 20, took, counts, gap))
if took < 0.02:
    jfrtest.skip("the C call is too short to measure on this machine")
if gap > took / 2:
    jfrtest.fail("the other thread stalled %.3f s of %.3f s: the GIL was held" % (gap, took))

# threads scale: two profiles in two threads against one after the other
recs = [big, bytes(big)]


def work(data):
    jfr.profile(data, "exec").folded()


t0 = time.perf_counter()
for d in recs:
    work(d)
serial = time.perf_counter() - t0
t0 = time.perf_counter()
ts = [threading.Thread(target=work, args=(d,)) for d in recs]
for t in ts:
    t.start()
for t in ts:
    t.join()
parallel = time.perf_counter() - t0
print("two profiles of %d MB: %.3f s one after the other, %.3f s in two threads (x%.2f, %d CPUs)"
      % (len(big) >> 20, serial, parallel, serial / parallel, os.cpu_count()))
print("ok: the GIL is released while C decodes")
