#!/usr/bin/env python3
"""check-live.py - following a real JVM (issue 29): a small workload
(FollowWorkload.java, a few seconds) records into a repository in a
temporary directory while jfrtool follows it from before its first chunk
exists to its exit, as `print --follow --json-lines`, `folded --follow`,
`summary --follow` and `print --follow PID`. When the JVM has exited, the
recording it dumped is read whole and:

* the JVM rotates its chunk while it runs (a second recording stops);
* every event `jfrtool print` of the dumped recording has was printed by
  the follower exactly once, with the same values, except references to
  constant-pool entries that the JVM writes only when it closes the chunk
  (class loaders of jdk.ClassLoaderStatistics): null when the event was
  flushed, an object in the closed chunk;
* the events of each flush came in end-time order (the order may only go
  back where a flush starts: a few times per second of JVM at most);
* folded --follow is `folded` of the dumped recording, summary --follow is
  its `summary`;
* nothing was read past a chunk's valid size: under strace, every read of
  a chunk's records ends where one of its flushes ends (skipped, saying
  so, without strace);
* each follower ends by itself when the JVM closes its last chunk, and
  says so.

Skips (77) when no JDK 14+ is found. How long each event took from its end
to the follower's output is printed (not checked: no timed tests; see
doc/performance.md for the measurement)."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import livejvm  # noqa: E402

check = livejvm.check


# ---- the dumped recording's chunks and where their flushes end ----------------


def flush_ends(data):
    """For each chunk: its size and the chunk-relative ends of its flushes
    (each FLUSH checkpoint's end) and of its close."""
    return [(len(c), set(livejvm.flush_ends(c)) | {len(c)}) for c in livejvm.chunks(data)]


# ---- events ------------------------------------------------------------------------


def nanos_of(iso):
    """2026-11-26T14:58:26.098110983Z -> ns since the epoch."""
    m = re.match(r"(\d+)-(\d+)-(\d+)T(\d+):(\d+):(\d+)(?:\.(\d+))?Z$", iso)
    if not m:
        return None
    import calendar
    secs = calendar.timegm(tuple(int(x) for x in m.groups()[:6]) + (0, 0, 0))
    frac = (m.group(7) or "0").ljust(9, "0")[:9]
    return secs * 10**9 + int(frac)


def duration_nanos(iso):
    """PT1M2.000003S -> ns (0 when absent or unreadable)."""
    m = re.match(r"PT(?:(-?\d+)H)?(?:(-?\d+)M)?(?:(-?\d+(?:\.\d+)?)S)?$", iso or "")
    if not m:
        return 0
    h, mi, s = (float(x) if x else 0.0 for x in m.groups())
    return int(round((h * 3600 + mi * 60 + s) * 1e9))


def end_of(ev):
    v = ev["values"]
    start = nanos_of(v.get("startTime", "")) if isinstance(v.get("startTime"), str) else None
    if start is None:
        return None
    d = v.get("duration")
    return start + (duration_nanos(d) if isinstance(d, str) else 0)


def key_of(ev):
    """The event without its objects: its type and scalar values."""
    scalars = tuple(sorted((k, json.dumps(v)) for k, v in ev["values"].items()
                           if not isinstance(v, (dict, list)) and v is not None))
    return ev["type"], scalars


def compatible(live, whole):
    """Equal, but where the follower saw null for an object the closed
    chunk defines."""
    if live == whole:
        return True
    if live is None and isinstance(whole, (dict, list)):
        return True
    if isinstance(live, dict) and isinstance(whole, dict):
        return live.keys() == whole.keys() and all(compatible(live[k], whole[k])
                                                   for k in live)
    if isinstance(live, list) and isinstance(whole, list):
        return len(live) == len(whole) and all(compatible(a, b) for a, b in zip(live, whole))
    return False


def compare_events(live_lines, whole_lines):
    live = [json.loads(line) for line in live_lines]
    whole = [json.loads(line) for line in whole_lines]
    groups = {}
    for ev in live:
        groups.setdefault(key_of(ev), []).append(ev)
    missing, changed, unresolved = 0, 0, {}
    for ev in whole:
        cands = groups.get(key_of(ev))
        if not cands:
            missing += 1
            if missing <= 3:
                print("  not followed: " + json.dumps(ev)[:300])
            continue
        exact = next((c for c in cands if c == ev), None)
        match = exact or next((c for c in cands if compatible(c, ev)), None)
        if match is None:
            changed += 1
            if changed <= 3:
                print("  different: " + json.dumps(cands[0])[:300])
            cands.pop(0)
            continue
        if exact is None:
            unresolved[ev["type"]] = unresolved.get(ev["type"], 0) + 1
        cands.remove(match)
    extra = sum(len(c) for c in groups.values())
    check(len(live) == len(whole),
          "print --follow printed %d events, the dumped recording has %d" % (len(live), len(whole)))
    check(missing == 0 and extra == 0, "every event exactly once (%d not followed, %d extra)"
          % (missing, extra))
    check(changed == 0, "the same values (%d differ)" % changed)
    print("  null when flushed, defined at the chunk's close: %s" % (unresolved or "none"))
    return live


def check_order(live, seconds):
    ends = [e for e in (end_of(ev) for ev in live) if e is not None]
    back = sum(1 for a, b in zip(ends, ends[1:]) if b < a)
    # each flush is sorted: the order goes back at most where one starts
    check(back <= 2 * seconds + 10,
          "events in end-time order within each flush (%d steps back in %d events, %d s)"
          % (back, len(ends), seconds))


# ---- followers ----------------------------------------------------------------------


class Follower:
    """A jfrtool command whose output is read as it comes, line by line,
    with the time each line came."""

    def __init__(self, args, prefix=()):
        env = dict(os.environ, TZ="UTC", LC_ALL="C")
        if prefix:
            # LeakSanitizer cannot stop the world under ptrace (a sanitizer
            # build's exit would fail): no leak check under strace
            env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
        self.p = subprocess.Popen(list(prefix) + [livejvm.JFRTOOL] + args,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.lines, self.times = [], []
        self.err = b""
        self.t = threading.Thread(target=self._read, daemon=True)
        self.t.start()
        self.e = threading.Thread(target=self._read_err, daemon=True)
        self.e.start()

    def _read(self):
        for line in self.p.stdout:
            self.times.append(time.time())
            self.lines.append(line.decode("utf-8", "replace"))

    def _read_err(self):
        self.err = self.p.stderr.read()

    def finish(self, timeout):
        try:
            rc = self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = "still running"
        self.t.join(5)
        self.e.join(5)
        return rc


def check_reads(trace, chunks):
    """Every read of a chunk file's records ends at one of its flushes."""
    reads = {}
    # pread64(3</tmp/.../x.jfr>, ""..., COUNT, OFFSET) = GOT; the JVM
    # deletes its repository when it exits: "<...x.jfr>(deleted)"
    pat = re.compile(r'pread64\(\d+<([^>]*?\.jfr)(?: \(deleted\))?>(?:\(deleted\))?, '
                     r'"[^"]*"\.*, (\d+), (\d+)\) = (\d+)')
    with open(trace) as f:
        for line in f:
            m = pat.search(line)
            if not m:
                continue
            path, count, off, got = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
            # the header is read at 0 (68 bytes, also to list the files)
            # and 64 (the state byte); everything else is records
            if (off, count) not in ((0, 68), (64, 1)):
                reads.setdefault(path, []).append((off, got))
    paths = sorted(reads)
    check(0 < len(paths) <= len(chunks),
          "strace saw the records of %d chunk files (%d chunks dumped)" % (len(paths), len(chunks)))
    bad = []
    for path, (size, ends) in zip(paths, chunks):
        for off, got in reads[path]:
            if off + got not in ends:
                bad.append("%s: read up to %d, not the end of a flush" % (os.path.basename(path),
                                                                         off + got))
    for b in bad[:3]:
        print("  " + b)
    check(not bad, "nothing read past a chunk's valid size (%d reads)" %
          sum(len(v) for v in reads.values()))


def latency(f, live):
    lat = []
    for ev, t in zip(live, f.times):
        end = end_of(ev)
        if end is not None and ev["type"] == "jdk.ExecutionSample":
            lat.append(t - end / 1e9)
    if lat:
        lat.sort()
        print("  latency of jdk.ExecutionSample, event end to output: median %.2f s, "
              "90%% %.2f s, max %.2f s (%d events)" % (
                  lat[len(lat) // 2], lat[int(len(lat) * 0.9)], lat[-1], len(lat)))


def run(java, javac, major, seconds=5):
    classes = livejvm.compile_workload(javac)
    tmp = tempfile.mkdtemp(prefix="jfr-follow-live.")
    try:
        repo = os.path.join(tmp, "repo")
        os.makedirs(repo)
        strace = shutil.which("strace")
        printer = Follower(["print", "--follow", "--json-lines", repo])
        folder = Follower(["folded", "--follow", repo])
        trace = os.path.join(tmp, "trace")
        counter = Follower(["summary", "--follow", repo],
                           ["strace", "-o", trace, "-y", "-s", "0", "-e", "trace=pread64"]
                           if strace else [])
        t0 = time.time()
        # a second recording that stops after 2 s makes the JVM rotate its
        # chunk while it runs
        jvm = livejvm.start_jvm(java, classes, tmp, seconds,
                                extra=["-XX:StartFlightRecording=duration=2s"])
        by_pid = None
        if livejvm.wait_for_chunk(tmp, jvm, 69):
            by_pid = Follower(["print", "--follow", "--events", "ExecutionSample",
                               str(jvm.pid)])
        rc = jvm.wait(timeout=120)
        took = int(time.time() - t0 + 0.5)
        with open(os.path.join(tmp, "final.jfr"), "rb") as f:
            chunks = flush_ends(f.read())
        check(rc == 0 and len(chunks) > 1, "the JVM ran (Java %d, %d s, %d chunks)"
              % (major, took, len(chunks)))
        for name, f in (("print", printer), ("folded", folder), ("summary", counter),
                        ("print PID", by_pid)):
            if f is None:
                check(False, "%s: the JVM made no chunk" % name)
                continue
            frc = f.finish(30)
            check(frc == 0, "%s --follow ended by itself when the JVM exited (%s)" % (name, frc))
            check(b"last chunk was closed" in f.err,
                  "%s --follow says why it ended: %r" % (name, f.err[-200:]))
        final = os.path.join(tmp, "final.jfr")

        def jfrtool(*args):
            return subprocess.run([livejvm.JFRTOOL] + list(args), capture_output=True,
                                  env=dict(os.environ, TZ="UTC", LC_ALL="C")).stdout.decode()

        whole = jfrtool("print", "--json-lines", final).splitlines()
        live = compare_events(printer.lines, whole)
        check_order(live, took)
        latency(printer, live)
        check("".join(folder.lines) == jfrtool("folded", final) and folder.lines,
              "folded --follow is folded of the dumped recording (%d stacks)" % len(folder.lines))
        check("".join(counter.lines) == jfrtool("summary", final),
              "summary --follow is summary of the dumped recording")
        if by_pid:
            check(any("burnFollowHot" in line for line in by_pid.lines),
                  "print --follow PID found the JVM's repository and its hot method")
        if strace:
            check_reads(trace, chunks)
        else:
            print("skipped: nothing read past a valid size (no strace)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    java, javac, major = livejvm.find_jdk()
    run(java, javac, major)
    return livejvm.finish("following a live JVM")


if __name__ == "__main__":
    sys.exit(main())
