"""jfr.follow: a JVM's recording read while the JVM writes it, over libjfr's
jfr_follow (jfr_follow(3), doc/follow.md).

    import jfr
    for ev in jfr.follow(12345, "jdk.ExecutionSample"):    # a pid, a repository, a file
        print(ev.start_time, ev["stackTrace"]["frames"][0]["method"]["name"])

    for start, end, prof in jfr.follow("/tmp/repo").profiles("cpu", interval=10):
        print(sorted(prof.folded().items(), key=lambda kv: -kv[1])[:5])

Events come flush by flush, each flush's in end-time order, each event
once; iteration ends when the JVM closes its recording (or exits), when
nothing changed for `idle` seconds, or when the process is gone. Waits are
cut into short slices, so Ctrl-C (KeyboardInterrupt) stops a loop, in a
notebook too; `async for ev in jfr.follow(...)` waits without blocking an
event loop (asyncio, a Jupyter kernel).
"""

import asyncio as _asyncio
import os as _os
import time as _time
import warnings as _warnings

from . import _native, Chunk, DamagedInputWarning, Profile, _Selection, _error, _str
from ._native import ffi as _ffi, lib as _lib

# how long one blocking wait in the library lasts at most: Ctrl-C is
# noticed between waits
_SLICE_MS = 200


class Flush:
    """What one flush added. `chunk` is a jfr.Chunk whose events(),
    count_events() and Profile.add_chunk() see only this flush's records,
    with the metadata and constant pools of everything flushed before it;
    it is valid until the next flush is taken. `path` (the chunk's file),
    `begin`/`end` (the byte range in that file), `start_nanos`/`end_nanos`
    (the chunk's duration before and after the flush, ns since the epoch),
    `chunk_number`, `first_in_chunk`, `chunk_closed`."""

    def __init__(self, follow, fl):
        self.follow = follow
        self.chunk = Chunk(follow, fl.chunk, follow._walk, fl.chunk_error)
        self.path = _str(fl.path)
        self.begin, self.end = fl.begin, fl.end
        self.start_nanos, self.end_nanos = fl.start_nanos, fl.end_nanos
        self.chunk_number = fl.chunk_number
        self.first_in_chunk = bool(fl.first_in_chunk)
        self.chunk_closed = bool(fl.chunk_closed)

    def __repr__(self):
        return "<jfr.Flush %s [%d, %d)>" % (self.path, self.begin, self.end)

    def events(self, *types, categories=None, datetimes=False):
        """The flush's events of these types (none: all; names as
        Recording.events takes them), by end time. A name that selects no
        type of this chunk selects nothing here: the JVM may declare it in
        a later one."""
        sel = _Selection(types, categories) if types or categories else None
        return self.chunk._events(sel, datetimes, ordered=True)


def _target(target):
    """(path, pid): a pid given as an int or as digits naming no file."""
    if isinstance(target, int) or (isinstance(target, str) and target.isdigit()
                                   and not _os.path.exists(target)):
        pid = int(target)
        buf = _ffi.new("char[]", 4096)
        err = _ffi.new("jfr_error *")
        if _lib.jfr_follow_find_pid(buf, 4096, pid, err) < 0:
            raise _error(err, "process %d" % pid)
        return _ffi.string(buf).decode(), pid
    path = _os.fspath(target)
    return (path if isinstance(path, str) else path.decode()), 0


class Follow:
    """A recording followed while it is written; see jfr.follow. Iterate it
    for events, or use flushes(), profiles(), poll(). `path` is what is
    followed (a pid's repository), `pid` the process (0: not known), `end`
    None while it runs, else why it ended: "finished" (the JVM closed its
    last chunk), "idle", "gone" (the process exited without closing it) or
    "damaged". Close it (or use `with`) to release the library's memory."""

    def __init__(self, target, *types, start="first", poll=0.1, idle=None,
                 datetimes=False, strict=False):
        if start not in _native.FOLLOW_STARTS:
            raise ValueError("start is one of %s" % ", ".join(_native.FOLLOW_STARTS))
        self._f = _ffi.NULL
        self.path, self.pid = _target(target)
        self.name = self.path
        self.types, self.datetimes, self.strict = types, datetimes, strict
        self.poll_seconds = poll
        self.errors = []  # every Error reported while following
        self._walk = 0  # flushes taken: a Chunk is valid while it is the last
        self._iters = []  # event iterators over the last flush's chunk
        self._rec = _ffi.NULL
        o = _ffi.new("jfr_follow_options *")
        o.version = _native.FOLLOW_OPTIONS_VERSION
        o.poll_ms = max(1, int(poll * 1000))
        o.idle_ms = int(idle * 1000) if idle else 0
        o.start = _native.FOLLOW_STARTS[start]
        o.pid = self.pid
        out = _ffi.new("jfr_follow **")
        err = _ffi.new("jfr_error *")
        if _lib.jfr_follow_open(out, self.path.encode(), o, err) < 0:
            raise _error(err, self.path)
        self._f = out[0]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def _leave_flush(self):
        """The last flush's chunk is about to go: its Chunk and Event
        objects stop working and their iterators are freed first."""
        self._walk += 1
        for held in self._iters:
            if held[0] is not None:
                _ffi.release(held[0])
                held[0] = None
        self._iters = []

    def close(self):
        if getattr(self, "_f", _ffi.NULL) != _ffi.NULL:
            self._leave_flush()
            _lib.jfr_follow_free(self._f)
            self._f = _ffi.NULL

    def __repr__(self):
        return "<jfr.Follow %r%s>" % (self.path, " ended: " + self.end if self.end else "")

    def _handle(self):
        if self._f == _ffi.NULL:
            raise ValueError("follow is closed")
        return self._f

    @property
    def end(self):
        reason = _lib.jfr_follow_end_reason(self._handle()) if self._f != _ffi.NULL else 0
        return _str(_lib.jfr_follow_end_name(reason)) if reason else None

    def _damaged(self, c_err, name=None):
        e = _error(c_err, name or self.path)
        self.errors.append(e)
        if isinstance(e, MemoryError) or self.strict:
            raise e
        _warnings.warn(DamagedInputWarning(e), stacklevel=3)

    def _take(self, rc, out):
        """A Flush for rc JFR_OK; None for nothing new; StopIteration at
        the end; a damaged chunk reported (and skipped by the library)."""
        if rc == 0:
            return Flush(self, out[0])
        if rc == _native.AGAIN:
            return None
        if rc == 1:
            raise StopIteration
        path = _lib.jfr_follow_error_path(self._f)
        self._damaged(_lib.jfr_follow_error(self._f), _str(path) if path != _ffi.NULL else None)
        return None

    def poll(self):
        """The next flush if one is there now (never waits), else None.
        Raises StopIteration when following has ended."""
        out = _ffi.new("const jfr_flush **")
        f = self._handle()
        self._leave_flush()
        return self._take(_lib.jfr_follow_poll(out, f), out)

    def flushes(self, timeout=None):
        """Each flush as it comes (a Flush), until following ends, or until
        `timeout` seconds pass without one."""
        out = _ffi.new("const jfr_flush **")
        quiet_since = _time.monotonic()
        while True:
            f = self._handle()
            self._leave_flush()
            rc = _lib.jfr_follow_next(out, f, _SLICE_MS)
            try:
                fl = self._take(rc, out)
            except StopIteration:
                return
            if fl is not None:
                quiet_since = _time.monotonic()
                yield fl
            elif timeout is not None and _time.monotonic() - quiet_since >= timeout:
                return

    def events(self, *types, datetimes=None, timeout=None):
        """The events of these types (none: those given to jfr.follow) as
        they are flushed, each flush's by end time. An Event is valid until
        the next one (ev.to_dict() keeps it)."""
        types = types or self.types
        datetimes = self.datetimes if datetimes is None else datetimes
        for fl in self.flushes(timeout):
            yield from fl.events(*types, datetimes=datetimes)

    def __iter__(self):
        return self.events()

    async def aevents(self, *types, datetimes=None):
        """events() for `async for`: the waits are asyncio sleeps."""
        types = types or self.types
        datetimes = self.datetimes if datetimes is None else datetimes
        while True:
            try:
                fl = self.poll()
            except StopIteration:
                return
            if fl is None:
                await _asyncio.sleep(self.poll_seconds)
                continue
            for ev in fl.events(*types, datetimes=datetimes):
                yield ev

    def __aiter__(self):
        return self.aevents()

    def profiles(self, kind=None, interval=60.0, timeout=None, **options):
        """A profile of the samples flushed in each `interval` seconds of
        wall-clock time: yields (start_ns, end_ns, Profile) at the end of
        every interval and, for the last part, when following ends. `kind`
        as jfr.profile (None: cpu when the JVM records CPU-time samples,
        else exec); other options as jfr.Profile."""
        kinds = [kind] if kind else ["cpu", "exec"]

        def fresh():
            return [Profile(k, **options) for k in kinds]

        def pick(ps):
            return ps[0] if kind or ps[0].samples else ps[1]

        profiles = fresh()
        start = _time.time_ns()
        step = int(interval * 1e9)
        out = _ffi.new("const jfr_flush **")
        quiet_since = _time.monotonic()
        while True:
            now = _time.time_ns()
            if now >= start + step:
                yield start, start + step, pick(profiles)
                profiles, start = fresh(), start + step
                continue
            wait = min(_SLICE_MS, max(1, (start + step - now) // 1000000))
            f = self._handle()
            self._leave_flush()
            rc = _lib.jfr_follow_next(out, f, int(wait))
            try:
                fl = self._take(rc, out)
            except StopIteration:
                yield start, _time.time_ns(), pick(profiles)
                return
            if fl is not None:
                quiet_since = _time.monotonic()
                for p in profiles:
                    p.add_chunk(fl.chunk)
            elif timeout is not None and _time.monotonic() - quiet_since >= timeout:
                yield start, _time.time_ns(), pick(profiles)
                return


def follow(target, *types, start="first", poll=0.1, idle=None, datetimes=False,
           strict=False):
    """Follow a JVM's recording while it is written: `target` is the JVM's
    process id (an int, or digits that name no file: its repository is
    found as `jfrtool top PID` finds it), its repository directory, or one
    growing chunk file. Iterating gives the events of `types` (none: all)
    as they are flushed. `start`: "first" (everything already written),
    "latest-chunk", or "now" (only what is flushed from now on); `poll`:
    seconds between looks at the files; `idle`: end after that many seconds
    without any change; `strict`: damaged chunks raise instead of warning.
    Returns a Follow (a context manager)."""
    return Follow(target, *types, start=start, poll=poll, idle=idle, datetimes=datetimes,
                  strict=strict)
