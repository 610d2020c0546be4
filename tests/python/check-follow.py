#!/usr/bin/env python3
"""check-follow.py - jfr.follow (python/jfr/follow.py): a JDK recording of
testdata replayed as its JVM wrote it, flush by flush (the bytes up to a
flush, the header its flush checkpoint holds a copy of, half of the next
flush already written), and polled after each step: every flush comes
once, its events by end time; the events, their counts and the profile
(fed each flush's chunk) are those of the file read whole, and profiles()
gives the same profile when the file ends. Then, with a JDK 14+ (else that
part is skipped, saying so), a real JVM followed by its process id, with
`for` and with `async for`."""
import asyncio
import os
import shutil
import sys
import tempfile
import warnings

import jfrtest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "follow"))
import livejvm  # noqa: E402  (the flushes' ends, read without libjfr)


def write(path, data):
    with open(path, "r+b" if os.path.exists(path) else "wb") as f:
        f.write(data)
        f.truncate()


def main():
    jfr = jfrtest.setup()
    failures = []

    def check(ok, what):
        print(("ok: " if ok else "FAIL: ") + what)
        if not ok:
            failures.append(what)

    src = os.path.join(jfrtest.testdata(), "recordings", "cpu-jdk25.jfr")
    data = open(src, "rb").read()
    ends = livejvm.flush_ends(data)
    tmp = tempfile.mkdtemp(prefix="jfr-py-follow.")
    try:
        live = os.path.join(tmp, "live.jfr")
        write(live, data[:68])
        f = jfr.follow(live)
        prof = jfr.Profile("cpu")
        counts, seen, steps = {}, 0, 0
        for k, end in enumerate(ends):
            nxt = ends[k + 1] if k + 1 < len(ends) else len(data)
            header = data[end - 68:end]  # the JVM's copy of the header
            write(live, header + data[68:end] + data[end:end + (nxt - end) // 2])
            got = 0
            while True:
                fl = f.poll()
                if fl is None:
                    break
                got += 1
                last, back = None, 0
                for ev in fl.events():
                    end = ev.start_time + (ev.get("duration") or 0)
                    counts[ev.type] = counts.get(ev.type, 0) + 1
                    seen += 1
                    back += last is not None and end < last
                    last = end
                check(back == 0, "flush %d: its events by end time" % (k + 1))
                prof.add_chunk(fl.chunk)
            steps += got
            check(got == 1, "flush %d of %d: one flush taken" % (k + 1, len(ends)))
        write(live, data)
        while True:
            try:
                fl = f.poll()
            except StopIteration:
                break
            if fl is None:
                continue
            check(fl.chunk_closed, "the close: its own flush, the chunk closed")
            for ev in fl.events():
                counts[ev.type] = counts.get(ev.type, 0) + 1
                seen += 1
            prof.add_chunk(fl.chunk)
        check(f.end == "finished", "the end is said: %s" % f.end)
        f.close()
        whole = jfr.open(src)
        check(counts == whole.count_events(), "each event type's count is the file's "
              "(%d events in %d flushes)" % (seen, steps + 1))
        wp = whole.profile("cpu")
        check(prof.folded() == wp.folded() and prof.samples == wp.samples,
              "a profile fed each flush is the file's (%d samples)" % prof.samples)
        # profiles(): the last, partial interval when the file ends
        with jfr.follow(live) as f2:
            got = list(f2.profiles("cpu", interval=3600))
        check(len(got) == 1 and got[0][2].folded() == wp.folded(),
              "profiles() gives the profile when following ends")
        # arguments
        try:
            jfr.follow(os.path.join(tmp, "none"))
            check(False, "a missing path raises")
        except jfr.Error as e:
            check(e.code == -9, "a missing path raises jfr.Error (%s)" % e)
        live_jvm(jfr, check, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print("FAIL: %d checks" % len(failures))
        return 1
    print("PASS: jfr.follow")
    return 0


def live_jvm(jfr, check, tmp):
    """A real JVM, followed by its pid."""
    java = os.environ.get("JAVA") or shutil.which("java")
    if not java:
        print("skipped: a real JVM (no java found)")
        return
    try:
        java, javac, major = livejvm.find_jdk()
    except SystemExit:
        print("skipped: a real JVM (no JDK 14+)")
        return
    classes = livejvm.compile_workload(javac)
    jvm = livejvm.start_jvm(java, classes, tmp, 4)
    if not livejvm.wait_for_chunk(tmp, jvm, 69):
        check(False, "the JVM made a chunk")
        return
    hot = 0
    with jfr.follow(jvm.pid, "jdk.ExecutionSample") as f:
        for ev in f:
            frames = ev["stackTrace"]["frames"]
            if frames and frames[0]["method"]["name"] == "burnFollowHot":
                hot += 1
        check(f.end == "finished", "following a pid ends when the JVM exits (%s)" % f.end)
    jvm.wait()
    check(hot > 0, "jfr.follow(pid): the hot method's samples (%d)" % hot)

    async def first_events(n):
        jvm2 = livejvm.start_jvm(java, classes, os.path.join(tmp, "2"), 3)
        livejvm.wait_for_chunk(os.path.join(tmp, "2"), jvm2, 69)
        got = []
        with jfr.follow(jvm2.pid, start="latest-chunk") as f:
            async for ev in f:
                got.append(ev.type)
                if len(got) == n:
                    break
        jvm2.kill()
        jvm2.wait()
        return got

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = asyncio.run(first_events(10))
    check(len(got) == 10, "async for: events of a running JVM (Java %d)" % major)


if __name__ == "__main__":
    sys.exit(main())
