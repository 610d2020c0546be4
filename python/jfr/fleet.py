"""jfr.fleet: profiles of many recordings on Dask distributed.

    from dask.distributed import Client
    import jfr.fleet
    client = Client("tcp://scheduler:8786")          # or Client(LocalCluster(...))
    merged = jfr.fleet.folded(client, paths, kind="cpu")
    merged.folded          # {stack: weight}, as `jfrtool folded --event cpu` of all files
    merged.errors          # [(name, message)], damaged files, as jfrtool reports them

Each recording is read on a worker, by path (a file system every worker
sees) or by a loader: a callable, picklable (a top-level function, a
functools.partial) that returns the recording's bytes, so a worker can read
from object storage. Results are folded stacks (or rows by method): maps
from stacks to integer weights, sent between workers as the library's
saved profiles (jfr_profile_save: each frame once, stacks as frame ids),
not as text. They are merged by the library (jfr_profile_merge_saved), in
a tree of tasks on the workers; integer sums do not depend on the order or
the grouping, so the result is the same whatever the partitioning, and
equal to what jfrtool gives on all the files at once (doc/python.md, "What
is additive"). Folded text is made once, from the merged profile, when the
caller reads it.
"""

import datetime
import os
import subprocess
import tempfile
import warnings

import jfr

__all__ = ["Loader", "folded", "hot_methods", "compare", "FleetResult", "Change"]


class Loader:
    """A named loader: `fn(*args)` returns a recording's bytes. The name is
    used in error reports. Picklable when `fn` and the args are."""

    def __init__(self, name, fn, *args):
        self.name, self.fn, self.args = name, fn, args

    def __call__(self):
        return self.fn(*self.args)

    def __repr__(self):
        return "Loader(%r)" % self.name


def _name(item):
    if isinstance(item, Loader):
        return item.name
    if callable(item):
        return getattr(item, "name", None) or getattr(item, "__name__", None) or repr(item)
    return os.fspath(item)


def _open(item, strict=False):
    name = _name(item)
    if callable(item):
        return jfr.Recording(item(), name=name, strict=strict)
    return jfr.Recording(item, name=name, strict=strict)


# ---- per-file work (runs on the workers) ---------------------------------------------

def _has_weights(prof, what):
    """Whether the profile adds anything: a stack of any weight for rows
    by method, a stack of weight > 0 for folded stacks (the text leaves
    out the others)."""
    if what == "hot":
        return jfr._lib.jfr_profile_stack_count(prof._p) > 0
    return prof.total > 0


def _shape_of(what, options):
    """The profile flags and options of the result `what` asks for."""
    if what == "hot":  # rows by method
        return (jfr._native.PROFILE_TOP_FRAME | jfr._native.PROFILE_SIGNATURES,
                dict(options, class_frames=False))
    return 0, options


def _part(files, **values):
    """A result as _one, _together and _merge make them: `files` files,
    nothing counted yet but `values`."""
    out = {"p": None, "errors": [], "files": files, "bytes": 0, "samples": 0,
           "unreadable": 0, "unit": None, "unknown": []}
    out.update(values)
    return out


def _take_profile(out, prof, name, what):
    """The samples of `prof` into result `out`, and its saved bytes when it
    adds anything (its unit named after file `name`)."""
    out["samples"] = prof.samples
    if _has_weights(prof, what):
        out["p"] = prof.save()
        out["unit"] = (name, prof.unit)
    return out


def _one(item, what, kind, options):
    """The result of one recording: {"p": saved profile bytes or None,
    "errors": [...], "files": 1, "bytes": size, "samples": n}. A recording
    that cannot be read gives no profile and its error, as jfrtool skips
    it."""
    out = _part(1)
    name = _name(item)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            rec = _open(item)
        except (jfr.Error, OSError) as e:
            out["errors"].append((name, str(e)))
            out["unreadable"] = 1
            return out
        try:
            out["bytes"] = rec.size
            flags, options = _shape_of(what, options)
            try:
                prof = jfr.profile([rec], kind, _flags=flags, **options)
            except jfr.UnknownEventTypeError as e:
                # an event type this file lacks: known when another file
                # declares it (_result), as for jfrtool's inputs
                out["unknown"].append((name, str(e)))
                return out
            except jfr.InvalidError:
                raise
            except jfr.Error as e:  # no chunk could be read (jfrtool: exit 2)
                out["errors"].append((name, str(e)))
                out["unreadable"] = 1
                return out
            _take_profile(out, prof, name, what)
        finally:
            rec.close()
    for w in caught:
        if issubclass(w.category, jfr.DamagedInputWarning):
            e = (name, str(w.message))
            if e not in out["errors"]:
                out["errors"].append(e)
    return out


def _merge(*parts, keep=False):
    """Sum results: profiles in the library (jfr_profile_merge_saved),
    counts; errors in input order. Weights of another unit than the first
    file's are not added (as jfrtool, which refuses to add them to one
    profile): the file is named in the errors. With `keep`, "p" is the
    merged jfr.Profile rather than its bytes (the last merge, on the
    client)."""
    saved = []
    out = _part(0)
    for p in parts:
        unit = p.get("unit")
        if unit and out["unit"] and unit[1] != out["unit"][1]:
            out["errors"].append((unit[0], "%s: its weights are in %s, the other files' in %s:"
                                  " left out" % (unit[0], unit[1] or "numbers",
                                                 out["unit"][1] or "numbers")))
            p = dict(p, p=None, samples=0)
        elif unit and not out["unit"]:
            out["unit"] = unit
        if p["p"] is not None:
            saved.append(p["p"])
        out["errors"].extend(p["errors"])
        out["unknown"].extend(p.get("unknown", ()))
        for k in ("files", "bytes", "samples", "unreadable"):
            out[k] += p[k]
    out["p"] = _merge_saved(saved, keep)
    return out


def _merge_saved(saved, keep=False):
    """One saved profile of several, summed by the library: as bytes, or
    with `keep` as the jfr.Profile; None for none."""
    if not saved:
        return None
    if len(saved) < 2 and not keep:
        return saved[0]
    merged = jfr.Profile.load(saved[0])
    for data in saved[1:]:
        merged.merge_saved(data)
    return merged if keep else merged.save()


def _first_kind(item):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            rec = _open(item)
        except jfr.Error:
            return "exec"
        try:
            return jfr.default_kind(rec)
        finally:
            rec.close()


def _first_start(item):
    try:
        rec = _open(item)
    except jfr.Error:
        return None
    try:
        return rec.start_nanos
    finally:
        rec.close()


# ---- the graph ------------------------------------------------------------------------

def _auto_batch(client, n):
    """Files per task when the caller does not say: a task per worker
    thread while the files are few, four per thread when they are many, so
    that the files of a task are read as jfrtool reads them (one profile,
    nothing saved and merged in between) and a slow task does not hold up
    the rest."""
    threads = sum(client.nthreads().values()) or 1
    per_thread = 1 if n <= 8 * threads else 4
    return max(1, -(-n // (threads * per_thread)))


def _submit(client, items, what, kind, options, fan_in, batch):
    """Futures of results, at most `fan_in` of them, reduced by summing
    in a tree of fan-in `fan_in` on the workers; `batch` files per task (1:
    a task per file; None: _auto_batch). The caller sums the last ones
    (_gather): the merged profile is made where it is used, not saved and
    loaded once more."""
    items = list(items)
    if not items:
        raise ValueError("no recordings")
    if kind is None:
        kind = client.submit(_first_kind, items[0], pure=False).result()
    if any(isinstance(options.get(k), (str, datetime.timedelta)) for k in ("start", "end")):
        # offsets ("10s") count from the start of the first recording, as in
        # jfrtool; everything becomes epoch ns before the tasks go out
        origin = client.submit(_first_start, items[0], pure=False).result() or 0
        options = dict(options)
        for k in ("start", "end"):
            if options.get(k) is not None:
                options[k] = jfr._time(options[k], origin)
    if batch is None:
        batch = _auto_batch(client, len(items))
    if batch > 1:
        groups = [items[i:i + batch] for i in range(0, len(items), batch)]
        futures = [client.submit(_batch, g, what, kind, options, pure=False)
                   for g in groups]
    else:
        futures = client.map(_one, items, what=what, kind=kind, options=options,
                             pure=False)
    while len(futures) > fan_in:
        futures = [client.submit(_merge, *futures[i:i + fan_in], pure=False)
                   for i in range(0, len(futures), fan_in)]
    return kind, futures


def _gather(client, futures):
    """The sum of the last results, on the client, its profile kept."""
    return _merge(*client.gather(futures), keep=True)


def _batch(items, what, kind, options):
    together = _together(items, what, kind, options) if len(items) > 1 else None
    return together or _merge(*[_one(i, what, kind, options) for i in items])


def _errors_by_file(caught, names):
    """The DamagedInputWarnings among `caught` as _one lists them, file by
    file in the order of `names`; None when one names no file of the batch
    or a file twice."""
    found = []
    for w in caught:
        if not issubclass(w.category, jfr.DamagedInputWarning):
            continue
        file = getattr(getattr(w.message, "error", None), "file", None)
        if names.count(file) != 1:
            return None
        found.append((names.index(file), (file, str(w.message))))
    errors = []
    for _, e in sorted(found, key=lambda f: f[0]):
        if e not in errors:
            errors.append(e)
    return errors


def _together(items, what, kind, options):
    """The result of several recordings read by one jfr.profile call, as
    jfrtool reads its inputs: one profile, where file by file each would be
    saved, loaded and merged again. None when a chunk of any of them is
    damaged, one is unreadable, lacks the event type or is refused: _batch
    then reads them one by one (_one), which names each file's errors.
    Samples whose stack trace is missing are named by file here too."""
    flags, options = _shape_of(what, options)
    names = [_name(item) for item in items]
    recs = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for item in items:
                recs.append(_open(item, strict=True))
            prof = jfr.profile(recs, kind, _flags=flags, errors="raise", **options)
            errors = _errors_by_file(caught, names)
            if errors is None:
                return None
            size = sum(r.size for r in recs)
    except jfr.UnknownEventTypeError:
        return None
    except jfr.InvalidError:
        raise
    except (jfr.Error, OSError, ValueError):
        return None
    finally:
        for rec in recs:
            rec.close()
    return _take_profile(_part(len(items), errors=errors, bytes=size), prof, names[0], what)


def _result(kind, r, what):
    """The FleetResult of merged results `r`; UnknownEventTypeError when no
    readable file declares the event type `kind` names (one that some file
    declares is known: the others add nothing)."""
    readable = r["files"] - r["unreadable"]
    if r.get("unknown") and len(r["unknown"]) == readable:
        name, message = r["unknown"][0]
        raise jfr.UnknownEventTypeError(message, kind)
    return FleetResult(kind, r, what)


class FleetResult:
    """A merged result: `folded` ({stack: weight}, made from the merged
    profile when first read) or `rows` (hot methods), `profile` (the merged
    jfr.Profile, None when no file added a stack), `saved` (its bytes,
    jfr.Profile.save), `kind`, `files`, `bytes` (decompressed bytes read),
    `samples`, `errors` ([(name, message)] of damaged or unreadable files,
    in input order) and `unreadable` (files of which nothing could be
    read)."""

    def __init__(self, kind, r, what):
        self.kind = kind
        self.files, self.bytes, self.samples = r["files"], r["bytes"], r["samples"]
        self.errors, self.unreadable = r["errors"], r["unreadable"]
        p = r["p"]  # the jfr.Profile _gather made, or saved bytes
        saved = isinstance(p, (bytes, bytearray))
        self.profile = jfr.Profile.load(p) if saved else p
        self._saved = p if saved else None
        self._folded = None
        if what == "hot":
            leaves = jfr._leaf_weights(self.profile) if self.profile else {}
            self.weights = dict(sorted(leaves.items(), key=lambda kv: kv[0].encode()))
            self.rows = jfr._rows_from_leaves(None, None, self.weights)

    @property
    def saved(self):
        """The merged profile's bytes (jfr.Profile.save), made when first
        read; None when no file added a stack."""
        if self._saved is None and self.profile is not None:
            self._saved = self.profile.save()
        return self._saved

    @property
    def folded(self):
        """{stack: weight} in byte order of the stacks, as jfrtool folded
        prints them: made once, from the merged profile."""
        if self._folded is None:
            self._folded = self.profile.folded() if self.profile else {}
        return self._folded

    @folded.setter
    def folded(self, value):
        self._folded = value

    def folded_text(self):
        """The folded stacks as jfrtool folded prints them (lines in byte
        order): the library's text of the merged profile, as it is, or the
        lines of `folded` when it was set."""
        if self._folded is not None or not self.profile:
            return "".join("%s %d\n" % kv for kv in self.folded.items())
        return self.profile.folded_text()


def folded(client, recordings, kind=None, *, fan_in=8, batch=None, **options):
    """The folded stacks of all `recordings` (paths or loaders), summed:
    equal to `jfrtool folded [--event KIND] [options] FILE...` on all of
    them. `options` are jfr.profile's (thread, start, end, include, exclude,
    threads, lines, annotate, normalize, weight). Without `kind`, the first
    recording decides, as in jfrtool. `batch` files are read in one task
    (default: as many tasks as worker threads for a few files, four per
    thread for many); `fan_in` results are merged in one task."""
    kind, futs = _submit(client, recordings, "folded", kind, options, fan_in, batch)
    return _result(kind, _gather(client, futs), "folded")


def hot_methods(client, recordings, kind="exec", *, limit=None, fan_in=8, batch=None,
                **options):
    """Methods on top of the stack over all recordings, summed: `rows`
    (method, weight, percent) as jfr.hot_methods gives for all the files."""
    kind, futs = _submit(client, recordings, "hot", kind, options, fan_in, batch)
    res = _result(kind, _gather(client, futs), "hot")
    if limit:
        res.rows = jfr.Rows(res.rows[:limit])
    return res


def _strip(frame):
    return jfr._strip_kind_suffix(frame)[0]


def _methods(fold):
    """{method: (self weight, total weight)} of folded stacks: self on the
    leaf, total once per stack that holds the method."""
    out = {}
    for stack, w in fold.items():
        frames = [_strip(f) for f in stack.split(";")]
        for f in set(frames):
            s, t = out.get(f, (0, 0))
            out[f] = (s, t + w)
        s, t = out[frames[-1]]
        out[frames[-1]] = (s + w, t)
    return out


class Change:
    """Baseline against candidate. `baseline` and `candidate` are
    FleetResults (folded stacks made with annotate and normalize, as jfrtool
    diff reads them); `rows` has one row per method: method, base_self,
    cand_self (weights on top of the stack), base_share, cand_share (of each
    group's total, in %), delta (cand_share - base_share), base_total,
    cand_total (weights of the stacks through the method) and
    delta_total; grew() and shrank() give the top ones."""

    def __init__(self, baseline, candidate):
        self.baseline, self.candidate = baseline, candidate
        bt = sum(baseline.folded.values()) or 1
        ct = sum(candidate.folded.values()) or 1
        bm, cm = _methods(baseline.folded), _methods(candidate.folded)
        rows = []
        for m in sorted(set(bm) | set(cm)):
            bs, btot = bm.get(m, (0, 0))
            cs, ctot = cm.get(m, (0, 0))
            rows.append({
                "method": m, "base_self": bs, "cand_self": cs,
                "base_share": 100.0 * bs / bt, "cand_share": 100.0 * cs / ct,
                "delta": 100.0 * cs / ct - 100.0 * bs / bt,
                "base_total": btot, "cand_total": ctot,
                "delta_total": 100.0 * ctot / ct - 100.0 * btot / bt})
        self.rows = jfr.Rows(rows)

    def grew(self, n=10, by="delta"):
        """The n methods whose share grew most (by "delta": on top of the
        stack, or "delta_total": anywhere in it)."""
        return jfr.Rows(sorted((r for r in self.rows if r[by] > 0),
                               key=lambda r: (-r[by], r["method"]))[:n])

    def shrank(self, n=10, by="delta"):
        return jfr.Rows(sorted((r for r in self.rows if r[by] < 0),
                               key=lambda r: (r[by], r["method"]))[:n])

    def render(self, output, format="html", title=None, jfrtool=None, unit=None):
        """Write jfrtool's differential flame graph of candidate against
        baseline (jfrtool diff --folded) to `output`. `jfrtool` is its path
        (default: $JFRTOOL, else jfrtool on PATH)."""
        tool = jfrtool or os.environ.get("JFRTOOL") or "jfrtool"
        with tempfile.TemporaryDirectory(prefix="jfr-fleet-") as d:
            paths = []
            for label, res in (("baseline", self.baseline), ("candidate", self.candidate)):
                p = os.path.join(d, label + ".folded")
                with open(p, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(res.folded_text())
                paths.append(p)
            args = [tool, "diff", "--folded", "--format", format, "-o", os.fspath(output)]
            if title:
                args += ["--title", title]
            if unit:
                args += ["--unit", unit]
            subprocess.run(args + paths, check=True, cwd=d)
        return output


def compare(client, baseline, candidate, kind=None, *, fan_in=8, batch=None, **options):
    """Change analysis of two groups of recordings (paths or loaders): both
    merged on the cluster at once, with the frame types and normalised names
    of jfrtool diff. Without `kind`, the first candidate recording decides."""
    options = dict(options)
    options.setdefault("annotate", True)
    options.setdefault("normalize", True)
    candidate, baseline = list(candidate), list(baseline)
    if kind is None:
        kind = client.submit(_first_kind, candidate[0], pure=False).result()
    _, fb = _submit(client, baseline, "folded", kind, options, fan_in, batch)
    _, fc = _submit(client, candidate, "folded", kind, options, fan_in, batch)
    rb, rc = _gather(client, fb), _gather(client, fc)
    return Change(_result(kind, rb, "folded"), _result(kind, rc, "folded"))
