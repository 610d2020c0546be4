#!/usr/bin/env python3
"""jfr.fleet on a LocalCluster of two worker processes (issue 13): over 24
recordings (copies, gzip copies, single chunks cut out of a multi-chunk
file, loaders returning bytes) the merged folded stacks equal `jfrtool
folded` of all of them, for several kinds, whatever the partitioning; a
truncated copy and a corrupt file are reported by name and the rest merge;
the change analysis finds the method made hotter in the candidate group and
renders jfrtool's differential flame graph. What travels is the library's
saved profile: a file merged with itself doubles every stack, as jfrtool
folded of the file twice, in under a quarter of the bytes of its pickled
folded stacks."""

import gzip
import os
import pickle
import shutil
import signal
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jfrtest  # noqa: E402

jfr = jfrtest.setup(dask=True)
import jfr.fleet  # noqa: E402
from dask.distributed import Client, LocalCluster  # noqa: E402

signal.alarm(170)  # the whole test, cluster included, or it fails
warnings.simplefilter("ignore", jfr.DamagedInputWarning)


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def main():
    rec = os.path.join(jfrtest.testdata(), "recordings")
    tmp = tempfile.mkdtemp(prefix="jfr-py-fleet-")
    files = []

    def add(name, data):
        p = os.path.join(tmp, name)
        with open(p, "wb") as f:
            f.write(data)
        files.append(p)

    # copies and gzip copies of the small recordings
    for name in ("cpu-jdk17.jfr", "cpu-jdk25.jfr", "io-jdk25.jfr", "leak-jdk17.jfr",
                 "leak-jdk25.jfr", "concat-17-25.jfr", "unfinished-jdk25.jfr"):
        data = read_bytes(os.path.join(rec, name))
        add("a-" + name, data)
        add("b-" + name + ".gz", gzip.compress(data, 1))
    # each chunk of a multi-chunk recording as a file of its own
    multi = os.path.join(rec, "multi-jdk25.jfr")
    data = read_bytes(multi)
    with jfr.open(multi) as r:
        spans = [(c.header["file_offset"], c.header["chunk_size"]) for c in r.chunks()]
    if len(spans) < 2:
        jfrtest.fail("multi-jdk25.jfr has %d chunks" % len(spans))
    for i, (off, size) in enumerate(spans):
        add("c-chunk%d.jfr" % i, data[off:off + size])
    add("d-multi.jfr", data)
    while len(files) < 24:
        add("e-copy%d-cpu-jdk25.jfr" % len(files), read_bytes(os.path.join(rec, "cpu-jdk25.jfr")))
    good = list(files)
    # damage: a truncated copy (salvaged, with a warning) and a corrupt file
    # (nothing readable)
    cut = read_bytes(os.path.join(rec, "cpu-jdk17.jfr"))
    add("x-truncated.jfr", cut[: len(cut) * 3 // 5])
    shutil.copy(os.path.join(jfrtest.testdata(), "corrupt", "bad-magic.jfr"),
                os.path.join(tmp, "y-bad-magic.jfr"))
    files.append(os.path.join(tmp, "y-bad-magic.jfr"))
    # half the items are loaders returning bytes, as from object storage
    items = [jfr.fleet.Loader(p, read_bytes, p) if i % 2 else p for i, p in enumerate(files)]

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=None)
    client = Client(cluster)
    try:
        checked = 0
        for kind, extra in (("exec", {}), ("alloc", {}), ("cpu", {"lines": True}),
                            ("lock", {}), ("wall", {"threads": True, "annotate": True})):
            args = ["folded", "--event", kind]
            args += ["--lines"] if extra.get("lines") else []
            args += ["--threads"] if extra.get("threads") else []
            args += ["--annotate"] if extra.get("annotate") else []
            p = jfrtest.run(*(args + files), check=False)
            want = jfrtest.parse_folded(p.stdout)
            if not want:
                jfrtest.fail("jfrtool folded --event %s gave nothing" % kind)
            res = jfr.fleet.folded(client, items, kind, **extra)
            if res.folded != want:
                only = set(res.folded.items()) ^ set(want.items())
                jfrtest.fail("fleet --event %s differs from jfrtool: %s" % (kind, sorted(only)[:3]))
            if res.folded_text().encode() != p.stdout:
                jfrtest.fail("fleet --event %s: folded_text() is not jfrtool's output" % kind)
            if res.files != len(files) or res.unreadable != 1:
                jfrtest.fail("files %d, unreadable %d" % (res.files, res.unreadable))
            names = [n for n, _ in res.errors]
            if files[-1] not in names or files[-2] not in names:
                jfrtest.fail("damaged files not reported by name: %s" % res.errors)
            checked += 1
            print("ok --event %s: %d stacks, %d files, errors: %s" % (
                kind, len(want), res.files,
                "; ".join(os.path.basename(n) + ": " + m[len(n) + 2:][:50]
                          for n, m in res.errors)))
        # another partitioning: batches of 5 files, pairs merged
        again = jfr.fleet.folded(client, list(reversed(items)), "exec", batch=5, fan_in=2)
        first = jfr.fleet.folded(client, items, "exec")
        if again.folded != first.folded or not first.folded:
            jfrtest.fail("the partitioning changed the result")
        # a task of several clean files reads them into one profile, as
        # jfrtool reads its inputs; a damaged file sends the task back to
        # one file at a time, which names each file's errors
        # one of them with samples whose stack trace is missing, which
        # each way names by file
        clean = [p for p in good if "unfinished" not in p][:4]
        clean.insert(2, os.path.join(rec, "mini-jfr10.jfr"))
        together = jfr.fleet._together(clean, "folded", "exec", {})
        apart = jfr.fleet._merge(*[jfr.fleet._one(p, "folded", "exec", {}) for p in clean])
        if together is None:
            jfrtest.fail("five clean files were not read together")
        if [n for n, _ in together["errors"]] != [clean[2]]:
            jfrtest.fail("the missing stack traces are not named: %r" % together["errors"])
        for k in ("files", "bytes", "samples", "errors", "unreadable"):
            if together[k] != apart[k]:
                jfrtest.fail("read together, %s %r; apart %r" % (k, together[k], apart[k]))
        if jfr.Profile.load(together["p"]).folded() != jfr.Profile.load(apart["p"]).folded():
            jfrtest.fail("five files read together differ from the five merged")
        for bad in files[-2:]:
            if jfr.fleet._together(clean + [bad], "folded", "exec", {}) is not None:
                jfrtest.fail("%s was read together with clean files" % bad)
        # default kind: the first file's, as jfrtool
        p = jfrtest.run(*(["folded"] + files), check=False)
        if jfr.fleet.folded(client, items).folded != jfrtest.parse_folded(p.stdout):
            jfrtest.fail("the default kind differs from jfrtool's")
        # what travels: saved profiles, merged by the library; a file
        # merged with itself doubles every stack (jfrtool folded FILE FILE),
        # and its bytes under a quarter of the pickled folded dict (names
        # weigh most on a recording this small: 5.6 % on the 114 MB bench
        # recording, doc/performance.md)
        one = os.path.join(rec, "cpu-jdk25.jfr")
        part = jfr.fleet._one(one, "folded", "cpu", {})
        twice = jfr.fleet._merge(part, jfr.fleet._one(one, "folded", "cpu", {}))
        merged = jfr.Profile.load(twice["p"]).folded()
        want = jfrtest.parse_folded(jfrtest.run("folded", "--event", "cpu", one, one).stdout)
        single = jfr.Profile.load(part["p"]).folded()
        if merged != want or merged != {k: 2 * v for k, v in single.items()}:
            jfrtest.fail("a file merged with itself is not doubled as jfrtool's")
        size = len(pickle.dumps(single))
        if len(part["p"]) * 4 > size:
            jfrtest.fail("saved profile %d bytes, pickled folded %d" % (len(part["p"]), size))
        print("ok saved profile: %d bytes (pickled folded stacks: %d)" % (len(part["p"]), size))
        # malformed bytes are refused with the offset of the bad byte, and
        # bytes of other flags are not merged
        try:
            jfr.Profile.load(part["p"][:-2])
            jfrtest.fail("a cut saved profile loaded")
        except jfr.Error as e:
            if e.code != -6 or not 0 < e.offset <= len(part["p"]) - 2:
                jfrtest.fail("cut saved profile: code %d, offset %d" % (e.code, e.offset))
        lines = jfr.fleet._one(one, "folded", "cpu", {"lines": True})
        try:
            jfr.Profile.load(part["p"]).merge_saved(lines["p"])
            jfrtest.fail("a profile with lines merged into one without")
        except ValueError:
            pass
        # hot methods equal jfr.hot_methods over all the good files
        hot = jfr.fleet.hot_methods(client, items, "exec")
        local = jfr.hot_methods(files, "exec")
        if [(r["method"], r["weight"]) for r in hot.rows] != \
                [(r["method"], r["weight"]) for r in local] or not local:
            jfrtest.fail("fleet hot methods differ from jfr.hot_methods")
        print("ok hot methods: %s %d" % (hot.rows[0]["method"], hot.rows[0]["weight"]))

        # change analysis: the candidate has extra copies of the recording
        # whose top method is the hot one
        hot_rec = os.path.join(rec, "cpu-jdk25.jfr")
        top = jfr.hot_methods(hot_rec, "exec")[0]["method"].split("(")[0]
        base = [p for p in good if "cpu-jdk25" not in p]
        cand = base + [jfr.fleet.Loader("hot%d" % i, read_bytes, hot_rec) for i in range(6)]
        change = jfr.fleet.compare(client, base, cand, "exec")
        grew = change.grew(3)
        if not grew or grew[0]["method"] != top:
            jfrtest.fail("the change analysis did not find %s: %s" % (top, list(grew)))
        if grew[0]["cand_self"] <= grew[0]["base_self"] or not change.shrank(3):
            jfrtest.fail("counts of the grown method: %s" % grew[0])
        print("ok change: %s grew %.2f%% (%d -> %d samples)" % (
            top, grew[0]["delta"], grew[0]["base_self"], grew[0]["cand_self"]))
        page = os.path.join(tmp, "diff.html")
        change.render(page, jfrtool=jfrtest.jfrtool(), title="fleet")
        html = read_bytes(page).decode()
        if '"mode":"diff"' not in html or top not in html:
            jfrtest.fail("the differential flame graph lacks %s" % top)
        print("ok: %d kinds merged as jfrtool, diff page %d bytes" % (checked, len(html)))
    finally:
        client.close()
        cluster.close()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
