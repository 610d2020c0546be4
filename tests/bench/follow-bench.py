#!/usr/bin/env python3
"""follow-bench.py - what following a busy JVM costs, and how late events
come (doc/performance.md, "Following a running JVM"). A benchmark, never a
test (make bench-follow).

A busy JVM runs for SECONDS + 15 s: the shared CpuWorkload (deep, varied
stacks; ../shared/workloads) when it is there, else tests/follow's
FollowWorkload, with CPU-time and execution samples every millisecond on
JDK 25 (testdata/recordings/cpu-jdk25.jfc), else JDK 17's profile settings
with execution samples every 10 ms. Once its first chunk is flushed, for
SECONDS (default 60):

* `jfrtool top DIR` runs on a pseudo-terminal (140x40, redrawn every
  second): its CPU time (utime + stime of /proc/PID/stat) over the run, as
  a share of one core;
* `jfrtool print --follow --json-lines DIR` prints every event: for each
  sample event, the time from its end (its startTime) to the moment its
  line was read from the pipe: the latency of following, median, 90th and
  99th percentile, maximum;
* with the Python binding (PYTHONPATH=python, JFR_LIBRARY), jfr.follow
  takes each flush: the time from the JVM's time stamp of the flush (the
  chunk's start plus the duration its header then says) to the moment the
  flush is handed out, the part of the latency that is the follower's.

With --replay FILE.jfr --speed N, no JVM runs: the chunks of a recording a
busy JVM made are written into a repository the way that JVM wrote them,
flush by flush (the bytes up to each flush, then the header copy its flush
checkpoint holds), N flushes every second (N = 1: the JVM's own pace; 10:
a JVM ten times as busy), and `jfrtool top` follows that: its CPU for a
known amount of samples a second, whatever else the machine runs.

Usage: follow-bench.py [-s SECONDS] [--java JAVA] [--replay FILE --speed N]
Environment: JFRTOOL, JFR_TOP_BUILDDIR, JFR_TESTDATA, JFR_SHARED.
"""
import argparse
import fcntl
import glob
import json
import os
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "follow"))
import livejvm  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def nanos_of(iso):
    import calendar
    m = re.match(r"(\d+)-(\d+)-(\d+)T(\d+):(\d+):(\d+)(?:\.(\d+))?Z$", iso)
    secs = calendar.timegm(tuple(int(x) for x in m.groups()[:6]) + (0, 0, 0))
    return secs * 10**9 + int((m.group(7) or "0").ljust(9, "0")[:9])


def chunk_flushes(data):
    """[(chunk bytes, [ends of its flushes])] of a file: the FLUSH
    checkpoints that end 68 bytes after the magic "FLR" (the replay points
    the bench has used since it was written)."""
    return [(c, [e for e in livejvm.flush_ends(c) if c[e - 68:e - 64] == b"FLR\0"])
            for c in livejvm.chunks(data)]


def replay(path, repo, speed, seconds, stop):
    """Write the recording's chunks into `repo` flush by flush, `speed`
    flushes a second, for `seconds` at most."""
    with open(path, "rb") as f:
        chunks = chunk_flushes(f.read())
    t = time.time()
    for n, (c, ends) in enumerate(chunks):
        name = os.path.join(repo, "chunk_%03d.jfr" % n)
        with open(name, "wb") as out:
            out.write(c[:68])  # opened: size 68, state 1 in the copy below
        for k in range(speed - 1, len(ends) + speed - 1, speed):
            end = ends[min(k, len(ends) - 1)]
            with open(name, "r+b") as out:
                out.seek(68)
                out.write(c[68:end])
                out.seek(0)
                out.write(c[end - 68:end])  # the header of that flush
            t += 1.0
            time.sleep(max(0.0, t - time.time()))
            if stop.is_set():
                return
        with open(name, "r+b") as out:
            out.write(c)  # closed


def run_replay(a):
    tmp = tempfile.mkdtemp(prefix="jfr-follow-replay.")
    try:
        repo = os.path.join(tmp, "repo")
        os.makedirs(repo)
        stop = threading.Event()
        w = threading.Thread(target=replay, args=(a.replay, repo, a.speed, a.s + 5, stop),
                             daemon=True)
        w.start()
        time.sleep(1.5)
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 140, 0, 0))
        top = subprocess.Popen([livejvm.JFRTOOL, "top", repo], stdin=slave, stdout=slave,
                               stderr=slave, env=dict(os.environ, LANG="C.UTF-8"))
        os.close(slave)
        drawn = [0]

        def drain():
            while True:
                r, _, _ = select.select([master], [], [], 0.5)
                if r:
                    try:
                        drawn[0] += len(os.read(master, 65536))
                    except OSError:
                        return

        threading.Thread(target=drain, daemon=True).start()
        time.sleep(2)  # the chunk so far is read
        t0, c0 = time.time(), cpu_seconds(top.pid)
        time.sleep(a.s)
        wall, cpu = time.time() - t0, cpu_seconds(top.pid) - c0
        stop.set()
        os.write(master, b"q")
        top.wait(timeout=10)
        print("replay of %s, %d flushes a second: jfrtool top used %.2f s of CPU in %.0f s:"
              " %.2f%% of one core (%d bytes drawn)" % (
                  os.path.basename(a.replay), a.speed, cpu, wall, 100 * cpu / wall, drawn[0]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


def workload(javac, tmp):
    """(classpath, main class, args) of the busy JVM."""
    shared = os.environ.get("JFR_SHARED") or os.path.join(HERE, "..", "..", "..", "shared")
    src = os.path.join(shared, "workloads", "src", "wl")
    if os.path.isdir(src):
        classes = os.path.join(tmp, "classes")
        subprocess.run([javac, "--release", "17", "-d", classes] +
                       glob.glob(os.path.join(src, "*.java")), check=True)
        return classes, "wl.CpuWorkload", "CpuWorkload (shared workloads, 2 threads per kind)"
    return livejvm.compile_workload(javac), "FollowWorkload", "FollowWorkload (4 burners)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-s", type=int, default=60)
    ap.add_argument("--java")
    ap.add_argument("--replay")
    ap.add_argument("--speed", type=int, default=1)
    a = ap.parse_args()
    if a.replay:
        return run_replay(a)
    if a.java:
        os.environ["JAVA"] = a.java
    java, javac, major = livejvm.find_jdk()
    tmp = tempfile.mkdtemp(prefix="jfr-follow-bench.")
    try:
        classes, main_class, what = workload(javac, tmp)
        testdata = os.environ.get("JFR_TESTDATA") or os.path.join(HERE, "..", "..", "testdata")
        jfc = os.path.join(testdata, "recordings", "cpu-jdk25.jfc")
        settings = jfc if major >= 25 else "profile"
        repo = os.path.join(tmp, "repo")
        os.makedirs(repo)
        seconds = a.s + 15
        args = [java, "-Xmx512m", "-XX:StartFlightRecording=settings=%s" % settings,
                "-XX:FlightRecorderOptions:repository=" + repo, "-cp", classes, main_class,
                str(seconds)] + (["2"] if main_class == "wl.CpuWorkload" else ["4"])
        jvm = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        chunk = livejvm.wait_for_chunk(tmp, jvm, 69)
        if not chunk:
            print("the JVM made no chunk")
            return 1
        rdir = os.path.dirname(chunk)

        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 140, 0, 0))
        top = subprocess.Popen([livejvm.JFRTOOL, "top", rdir], stdin=slave, stdout=slave,
                               stderr=slave, env=dict(os.environ, LANG="C.UTF-8"))
        os.close(slave)
        printer = subprocess.Popen([livejvm.JFRTOOL, "print", "--follow", "--json-lines", rdir],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        lat, count = [], [0]

        def read_lines():
            for line in printer.stdout:
                t = time.time()
                count[0] += 1
                if b'"jdk.ExecutionSample"' not in line and b'"jdk.CPUTimeSample"' not in line:
                    continue
                ev = json.loads(line)
                lat.append(t - nanos_of(ev["values"]["startTime"]) / 1e9)

        reader = threading.Thread(target=read_lines, daemon=True)
        reader.start()
        handed = []
        try:
            import jfr

            def take_flushes():
                with jfr.follow(rdir, start="now") as f:
                    for fl in f.flushes():
                        handed.append(time.time() - fl.end_nanos / 1e9)

            threading.Thread(target=take_flushes, daemon=True).start()
        except ImportError:
            print("(no jfr package: the flush-to-handout time is not measured)")
        screen = [0]

        def drain():
            while True:
                r, _, _ = select.select([master], [], [], 0.5)
                if r:
                    try:
                        screen[0] += len(os.read(master, 65536))
                    except OSError:
                        return

        threading.Thread(target=drain, daemon=True).start()
        time.sleep(1)  # both have read the chunk so far
        t0, c_top, c_print = time.time(), cpu_seconds(top.pid), cpu_seconds(printer.pid)
        c_jvm = cpu_seconds(jvm.pid)
        n0, h0 = len(lat), len(handed)
        time.sleep(a.s)
        wall = time.time() - t0
        c_top = cpu_seconds(top.pid) - c_top
        c_print = cpu_seconds(printer.pid) - c_print
        c_jvm = cpu_seconds(jvm.pid) - c_jvm
        os.write(master, b"q")
        top.wait(timeout=10)
        printer.kill()
        jvm.kill()
        jvm.wait()
        got = sorted(lat[n0:])
        with open("/proc/loadavg") as f:
            load = f.read().split()[0]
        print("JVM: Java %d, %s, settings %s; it used %.2f cores" % (
            major, what, os.path.basename(settings), c_jvm / wall))
        print("machine: %d CPUs, load average %s" % (os.cpu_count(), load))
        print("jfrtool top: %.2f s of CPU in %.0f s: %.2f%% of one core (%d bytes drawn)" % (
            c_top, wall, 100 * c_top / wall, screen[0]))
        print("jfrtool print --follow --json-lines: %.2f s of CPU: %.2f%% of one core, "
              "%d events" % (c_print, 100 * c_print / wall, count[0]))
        def summary(values, what):
            if not values:
                return
            values = sorted(values)

            def pct(p):
                return values[min(len(values) - 1, int(len(values) * p))]
            print("%s (%d): median %.3f s, 90%% %.3f s, 99%% %.3f s, max %.3f s" % (
                what, len(values), pct(0.5), pct(0.9), pct(0.99), values[-1]))
        summary(got, "latency, sample end to printed line, samples")
        summary(handed[h0:], "flush time stamp to handed out by jfr.follow, flushes")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
