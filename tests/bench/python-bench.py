#!/usr/bin/env python3
"""Benchmark of the Python package (doc/python.md, "Performance"): not a test.

1. jfr.fleet throughput: the folded stacks (exec) of a fleet of small
   recordings, then (cpu) of 4 copies of the big recording (BIG.jfr: the
   many-stack kind), on a LocalCluster of 1 and then 2 worker processes
   (one thread each), in MB/s of decompressed input, side by side with
   `jfrtool folded --jobs 1` on the same files, the scaling from 1 to 2
   workers, and the bytes a worker sends per file (its pickled result);
   also the same without the folded dict (the merged profile only).
2. Iterating every event of one big recording in Python (counting them;
   decoding every value with to_dict()) against `jfrtool print --json`.

Usage: python-bench.py [-n FILES] [-r RUNS] [--no-small] [--no-events] [BIG.jfr...]
  BIG.jfr      the big recordings, each measured as 4 copies (default:
               $BENCH_FILE, else the test recordings concatenated into one
               file of 40 chunks)
  --no-small   leave out the fleet of small recordings
  --no-events  leave out part 2 (iterating every event)
Needs python3-cffi and python3-distributed, JFR_LIBRARY or a build tree,
and $JFRTOOL (or jfrtool/jfrtool of the build tree).
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.normpath(os.path.join(here, "..", ".."))
sys.path.insert(0, os.path.join(top, "python"))

import jfr  # noqa: E402
import jfr.fleet  # noqa: E402


def best(fn, runs):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def fleet_rates(tool, fleet, size, kind, runs):
    """MB/s of jfr.fleet.folded (the folded stacks read, as a caller does)
    with 1 and 2 workers, beside jfrtool folded on the same files."""
    import pickle
    from dask.distributed import Client, LocalCluster

    def merged(client):
        return len(jfr.fleet.folded(client, fleet, kind).folded)

    def merged_profile(client):  # the same work but the text: what Python's dict costs
        return jfr.fleet.folded(client, fleet, kind).profile is not None

    part = jfr.fleet._one(fleet[0], "folded", kind, {})
    print("bytes a worker sends for %s: %d" % (os.path.basename(fleet[0]),
                                              len(pickle.dumps(part, protocol=5))))
    t = best(lambda: subprocess.run([tool, "folded", "--event", kind, "--jobs", "1"] + fleet,
                                    stdout=subprocess.DEVNULL, check=True), runs)
    tool_rate = size / t / 1e6
    print("jfrtool folded --event %s --jobs 1: %.3f s, %.1f MB/s" % (kind, t, tool_rate))
    rates = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            jfr.fleet.folded(client, fleet[:workers], kind)  # warm the workers
            t = best(lambda: merged(client), runs)
            t_saved = best(lambda: merged_profile(client), runs)
        rates[workers] = size / t / 1e6
        print("fleet folded %s, %d worker(s): %.3f s, %.1f MB/s (%.0f %% of jfrtool's)"
              % (kind, workers, t, rates[workers], 100 * rates[workers] / tool_rate))
        print("  the merged profile only, no folded dict: %.3f s, %.1f MB/s (%.0f %%)"
              % (t_saved, size / t_saved / 1e6, 100 * size / t_saved / 1e6 / tool_rate))
    print("scaling 1 -> 2 workers: x%.2f" % (rates[2] / rates[1]))


def big_fleet(tool, tmp, big, runs):
    """The many-stack fleet: 4 copies of `big` by symbolic link."""
    with jfr.open(big) as r:
        bsize = r.size
    copies = []
    for i in range(4):
        copies.append(os.path.join(tmp, "copy%d-%s" % (i, os.path.basename(big))))
        os.symlink(os.path.abspath(big), copies[-1])
    print("fleet: 4 copies of %s, %.1f MB decompressed" % (os.path.basename(big),
                                                            4 * bsize / 1e6))
    fleet_rates(tool, copies, 4 * bsize, "cpu", runs)


def iterate_events(tool, big, runs):
    """Part 2: every event of `big` in Python against jfrtool print --json."""
    with jfr.open(big) as r:
        bsize = r.size
        nev = sum(r.count_events().values())
    print("big recording: %s, %.1f MB, %d events" % (os.path.basename(big), bsize / 1e6, nev))
    t_tool = best(lambda: subprocess.run([tool, "print", "--json", big],
                                         stdout=subprocess.DEVNULL, check=True), runs)

    def count():
        with jfr.open(big) as r:
            return sum(1 for _ in r.events())

    def decode():
        with jfr.open(big) as r:
            for ev in r.events():
                ev.to_dict()

    t_count = best(count, runs)
    t_decode = best(decode, 1)
    print("jfrtool print --json:          %7.3f s  %9.0f events/s" % (t_tool, nev / t_tool))
    print("python: every event, counted:  %7.3f s  %9.0f events/s  (x%.1f jfrtool's time)"
          % (t_count, nev / t_count, t_count / t_tool))
    print("python: every event, to_dict(): %6.3f s  %9.0f events/s  (x%.1f jfrtool's time)"
          % (t_decode, nev / t_decode, t_decode / t_tool))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=48, help="recordings in the fleet")
    ap.add_argument("-r", type=int, default=3, help="runs; the best is kept")
    ap.add_argument("--no-small", action="store_true", help="no fleet of small files")
    ap.add_argument("--no-events", action="store_true", help="no event iteration")
    ap.add_argument("big", nargs="*")
    a = ap.parse_args()
    if not a.big and os.environ.get("BENCH_FILE"):
        a.big = [os.environ["BENCH_FILE"]]
    warnings.simplefilter("ignore", jfr.DamagedInputWarning)
    tool = os.environ.get("JFRTOOL") or os.path.join(top, "jfrtool", "jfrtool")
    testdata = os.path.join(top, "testdata", "recordings")
    # the sound ones: unfinished recordings warn on every read
    sources = [f for f in sorted(glob.glob(os.path.join(testdata, "*.jfr")))
               if "unfinished" not in f and "gzip" not in f]
    tmp = tempfile.mkdtemp(prefix="jfr-py-bench-")
    try:
        fleet = []
        for i in range(a.n):
            src = sources[i % len(sources)]
            dst = os.path.join(tmp, "%03d-%s" % (i, os.path.basename(src)))
            shutil.copy(src, dst)
            fleet.append(dst)
        size = 0
        for p in fleet:
            with jfr.open(p) as r:
                size += r.size
        print("machine: %d CPUs; Python %s; libjfr %s" % (
            os.cpu_count(), sys.version.split()[0], jfr.version()))
        if not a.no_small:
            print("fleet: %d recordings, %.1f MB decompressed" % (len(fleet), size / 1e6))
            fleet_rates(tool, fleet, size, "exec", a.r)

        bigs = a.big
        if not bigs:
            bigs = [os.path.join(tmp, "big.jfr")]
            with open(bigs[0], "wb") as out:
                for i in range(40):
                    with open(sources[i % len(sources)], "rb") as f:
                        out.write(f.read())
        for big in bigs:
            big_fleet(tool, tmp, big, a.r)
        if not a.no_events:
            iterate_events(tool, bigs[0], a.r)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
