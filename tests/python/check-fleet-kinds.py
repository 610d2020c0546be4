#!/usr/bin/env python3
"""jfr.fleet and jfrtool choose a kind's events alike (issue 26): for every
profile kind, `jfrtool folded --event KIND FILES` and
`jfr.fleet.folded(client, FILES, KIND)` over every test recording and every
recording of the public corpus at once (JDK 9 to 25, async-profiler 2 to 4,
Datadog; JDK 11 and JDK 17 files among them) give the same stacks: which
events stand for a kind is decided per chunk, never once per input or per
file. The corpus is skipped, saying so, when absent."""

import glob
import os
import signal
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jfrtest  # noqa: E402

jfr = jfrtest.setup(dask=True)
import jfr.fleet  # noqa: E402
from dask.distributed import Client, LocalCluster  # noqa: E402

signal.alarm(400)  # the whole test, cluster included, or it fails
warnings.simplefilter("ignore", jfr.DamagedInputWarning)


def inputs():
    data = jfrtest.testdata()
    files = sorted(glob.glob(os.path.join(data, "recordings", "*.jfr")))
    files += sorted(glob.glob(os.path.join(data, "kinds", "*.jfr")))
    shared = os.environ.get("JFR_SHARED", os.path.join(data, "..", "..", "shared"))
    corpus = os.path.join(shared, "corpus", "public")
    if os.path.isfile(os.path.join(corpus, "MANIFEST.tsv")):
        files += sorted(p for p in glob.glob(os.path.join(corpus, "*"))
                        if p.endswith((".jfr", ".jfr.gz")))
        if not any("sjk-jfr_11_mc" in p for p in files):
            jfrtest.fail("the corpus lacks its JDK 11 recording")
    else:
        print("SKIP: the corpus (%s not found): test recordings only" % corpus)
    return files


def main():
    files = inputs()
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=None)
    client = Client(cluster)
    try:
        for k in jfr.kinds():
            kind = k["name"]
            p = jfrtest.run("folded", "--event", kind, *files, check=False)
            want = jfrtest.parse_folded(p.stdout)
            res = jfr.fleet.folded(client, files, kind)
            if res.folded != want:
                only = set(res.folded.items()) ^ set(want.items())
                jfrtest.fail("--event %s: fleet and jfrtool differ: %s"
                             % (kind, sorted(only)[:3]))
            print("ok --event %s: %d stacks, total %d, %d files"
                  % (kind, len(want), sum(want.values()), len(files)))
    finally:
        client.close()
        cluster.close()


if __name__ == "__main__":
    main()
