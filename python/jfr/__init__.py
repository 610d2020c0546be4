"""jfr: JDK Flight Recorder recordings in Python, over libjfr's public C API.

    import jfr
    rec = jfr.open("app.jfr")              # a path, or bytes (plain, gzip, lz4, xz, bzip2)
    for ev in rec.events("jdk.ExecutionSample"):
        print(ev.start_time, ev["sampledThread"]["javaName"])
    folded = rec.profile("cpu").folded()   # {"a;b;c": weight}, as jfrtool folded

See doc/python.md for the whole API, errors and threads, and jfr.fleet for
many recordings on Dask distributed.
"""

import builtins as _builtins
import datetime as _dt
import os as _os
import warnings as _warnings

from ._native import ffi as _ffi, lib as _lib
from . import _native

__all__ = [
    "open", "Recording", "Chunk", "Event", "Profile", "Node", "Rows",
    "Error", "FormatError", "VersionError", "CorruptError", "TruncatedError",
    "LimitError", "InvalidError", "NotFoundError", "UnknownEventTypeError",
    "DamagedInputWarning", "RuleError", "profile", "hot_methods", "leaks", "findings",
    "report_data",
    "kinds", "folded_text", "version", "features", "scrub", "Scrubbed", "Writer",
    "follow", "Follow", "Flush", "view", "view_text", "sql", "ViewRows",
]

# ---- errors -----------------------------------------------------------------------


class Error(Exception):
    """A libjfr failure: `code` (a JFR_E* value), `message` (the library's
    text), `file` (the recording's name), `chunk` (index or -1), `offset`
    (absolute byte offset in the decompressed input), `sys_errno`."""

    def __init__(self, code, message, file=None, chunk=-1, offset=0, sys_errno=0,
                 located=None):
        self.code = code
        self.message = message
        self.file = file
        self.chunk = chunk
        self.offset = offset
        self.sys_errno = sys_errno
        # the message after its location, as libjfr's jfr_error_text puts it
        self.located = message if located is None else located
        super().__init__(self._text())

    def _text(self):
        # as jfrtool says it (format_error in jfrtool/util.c)
        name = self.file if self.file is not None else "(memory)"
        return "%s: %s" % (name, self.located)

    @property
    def name(self):
        return _ffi.string(_lib.jfr_strerror(self.code)).decode()


class InvalidError(Error, ValueError):
    """JFR_EINVAL: a bad argument (an unknown kind, a bad regex, ...)."""


class FormatError(Error):
    """JFR_EFORMAT: not a recording."""


class VersionError(Error):
    """JFR_EVERSION: a format version libjfr cannot read."""


class CorruptError(Error):
    """JFR_ECORRUPT: malformed data inside a chunk."""


class TruncatedError(Error):
    """JFR_ETRUNCATED: the input ends inside a chunk."""


class LimitError(Error):
    """JFR_ELIMIT: a size or depth over a configured limit."""


class NotFoundError(Error, KeyError):
    """JFR_ENOTFOUND: a name or key that is not there."""

    __str__ = Exception.__str__


class RuleError(InvalidError):
    """A rule that is wrong (doc/report.md, "Rules of your own"): the message
    names its file, line and id, as jfrtool rules says it."""

    def __init__(self, message):
        super().__init__(-1, message)

    def _text(self):
        return self.message


class UnknownEventTypeError(NotFoundError, InvalidError):
    """An event type name, glob or category that selects no event type that
    the recordings declare (jfrtool's usage error): never an empty result.
    `item` is the name, `suggestions` the nearest names the recordings have
    (libjfr's rule, jfr_type_filter(3)); the message says both."""

    def __init__(self, message, item, suggestions=(), file=None):
        self.item = item
        self.suggestions = list(suggestions)
        super().__init__(-9, message, file)

    def _text(self):
        return self.message if self.file is None else Error._text(self)


_ERRORS = {-1: InvalidError, -3: Error, -4: FormatError, -5: VersionError,
           -6: CorruptError, -7: TruncatedError, -8: LimitError, -9: NotFoundError}


class DamagedInputWarning(UserWarning):
    """Damage that jfrtool reports and reads past (a corrupt or cut chunk, a
    damaged constant pool). `error` is the Error it stands for."""

    def __init__(self, error):
        self.error = error
        super().__init__(str(error))


def _error(c_err, file):
    code = c_err.code
    msg = _ffi.string(c_err.message).decode("utf-8", "replace")
    if code == -2:
        return MemoryError("%s: %s" % (file, msg))
    cls = _ERRORS.get(code, Error)
    buf = _ffi.new("char[]", 256)
    _lib.jfr_error_text(buf, len(buf), c_err)
    located = _ffi.string(buf).decode("utf-8", "replace")
    return cls(code, msg, file, c_err.chunk, c_err.offset, c_err.sys_errno, located)


def version():
    """libjfr's version string."""
    return _ffi.string(_lib.jfr_version_string()).decode()


def features():
    """The input filters compiled into libjfr: a subset of gzip, lz4, xz, bzip2."""
    bits = _lib.jfr_features()
    return sorted(k for k, v in _native.FEATURES.items() if bits & v)


def _str(p):
    return None if p == _ffi.NULL else _ffi.string(p).decode("utf-8", "surrogateescape")


def _jstr(s):
    if s.ptr == _ffi.NULL:
        return None
    return _ffi.unpack(s.ptr, s.len).decode("utf-8", "surrogateescape")


def _key(ptr):
    return int(_ffi.cast("uintptr_t", ptr))


# ---- naming event types (libjfr's rule: jfr_type_filter(3)) -------------------------

_BY_NAME, _BY_CATEGORY = 0, 1


def _type_filter(text, by):
    """A libjfr filter of `text` (a str, or several joined by commas)."""
    if not isinstance(text, str):
        text = ",".join(text)
    out = _ffi.new("jfr_type_filter **")
    err = _ffi.new("jfr_error *")
    rc = _lib.jfr_type_filter_new(out, text.encode(), by, _ffi.NULL, err)
    if rc == -2:
        raise MemoryError("event type filter")
    if rc < 0:
        raise InvalidError(rc, _ffi.string(err.message).decode("utf-8", "replace"),
                           "categories" if by == _BY_CATEGORY else "events")
    return _ffi.gc(out[0], _lib.jfr_type_filter_free)


def _type_set(recordings):
    """The event types every chunk of the recordings declares (each
    recording is rewound: walks over it end)."""
    out = _ffi.new("jfr_type_set **")
    if _lib.jfr_type_set_new(out, _ffi.NULL) < 0:
        raise MemoryError("event type set")
    tset = _ffi.gc(out[0], _lib.jfr_type_set_free)
    for rec in recordings:
        rec._walk += 1
        if _lib.jfr_type_set_add_recording(tset, rec._handle()) < 0:
            raise MemoryError("event type set")
    return tset


def _nearest(tset, name, by, n=3):
    out = _ffi.new("const char *[]", n)
    return [_str(out[i]) for i in range(_lib.jfr_type_set_nearest(out, n, tset,
                                                                  name.encode(), by))]


def _check_filter(f, by, tset, file=None):
    """Raise UnknownEventTypeError when an item of `f` selects no type of
    `tset` (a set without types, of unreadable input, passes)."""
    if _lib.jfr_type_set_count(tset) == 0:
        return
    item = _ffi.new("size_t *")
    err = _ffi.new("jfr_error *")
    if _lib.jfr_type_filter_check(item, f, tset, err) == 0:
        return
    name = _str(_lib.jfr_type_filter_item(f, item[0]))
    raise UnknownEventTypeError(_ffi.string(err.message).decode("utf-8", "replace"),
                                name, _nearest(tset, name, by), file)


class _Selection:
    """The event types one events() call names: by name (full, short, glob)
    and by category; both must select a type, as jfr print's --events and
    --categories."""

    def __init__(self, types, categories):
        self.names = _type_filter(types, _BY_NAME) if types else None
        self.categories = _type_filter(categories, _BY_CATEGORY) if categories else None

    def check(self, tset, file=None):
        if self.names is not None:
            _check_filter(self.names, _BY_NAME, tset, file)
        if self.categories is not None:
            _check_filter(self.categories, _BY_CATEGORY, tset, file)

    def chunk_names(self, c):
        """Names of the types of chunk handle `c` that are selected."""
        names = []
        for i in range(_lib.jfr_chunk_type_count(c)):
            t = _lib.jfr_chunk_type_at(c, i)
            if (self.names is None or _lib.jfr_type_filter_matches(self.names, t)) and \
                    (self.categories is None or
                     _lib.jfr_type_filter_matches(self.categories, t)):
                names.append(_ffi.string(_lib.jfr_type_name(t)))
        return names


def _resolve_event_type(name, recordings):
    """The full name of the one event type `name` (full or short name, a
    glob of one type) stands for among the recordings' types; `name` when
    none could be read."""
    tset = _type_set(recordings)
    if _lib.jfr_type_set_count(tset) == 0:
        return name
    out = _ffi.new("const char **")
    err = _ffi.new("jfr_error *")
    rc = _lib.jfr_type_set_resolve(out, tset, name.encode(), err)
    if rc == 0:
        return _str(out[0])
    if rc == -9:  # as jfrtool: the nearest kinds, then the nearest types
        kinds_ = [k["name"] for k in kinds()]
        c = [_ffi.new("char[]", k.encode()) for k in kinds_]
        idx = _ffi.new("size_t[3]")
        near = [kinds_[idx[i]] for i in range(_lib.jfr_nearest_names(
            idx, 3, name.encode(), _ffi.new("const char *[]", c), len(c)))]
        near = (near + _nearest(tset, name, _BY_NAME))[:3]
        raise UnknownEventTypeError(
            "unknown profile kind or event type %r%s" % (
                name, " (did you mean %s?)" % ", ".join(near) if near else
                " (jfr.kinds() lists the kinds)"), name, near)
    raise InvalidError(rc, _ffi.string(err.message).decode("utf-8", "replace"), "profile")


# ---- opening ----------------------------------------------------------------------


def open(source, name=None, strict=False):
    """Open a recording: a path (str or os.PathLike) or its bytes (bytes,
    bytearray, memoryview), plain JFR or compressed (gzip, lz4, xz, bzip2:
    libjfr recognises the container by its magic bytes). `name` is used in
    messages (default: the path, or "(memory)"). With `strict`, damage that
    jfrtool warns about and reads past raises instead.
    Raises Error (FormatError, TruncatedError, ...) when nothing can be read,
    OSError-like failures as Error with `sys_errno` set."""
    return Recording(source, name=name, strict=strict)


class Recording:
    """An open recording; see jfr.open. Use as a context manager or call
    close(); the library's memory is released at the latest when the object
    is collected. A recording is used by one thread at a time; open the same
    file twice for two threads."""

    def __init__(self, source, name=None, strict=False):
        self._rec = _ffi.NULL
        self._keep = None
        self._path = None  # the file, when opened from one (findings read it by name)
        self.strict = strict
        out = _ffi.new("jfr_recording **")
        err = _ffi.new("jfr_error *")
        if isinstance(source, (bytes, bytearray, memoryview)):
            self.name = name or "(memory)"
            data = bytes(source) if not isinstance(source, bytes) else source
            # plain JFR is borrowed by libjfr: keep the bytes alive
            self._keep = _ffi.from_buffer(data)
            self._data = data
            rc = _lib.jfr_recording_open_memory(out, self._keep, len(data), _ffi.NULL, err)
        else:
            path = _os.fspath(source)
            self._path = path
            self.name = name or (path if isinstance(path, str) else path.decode())
            rc = _lib.jfr_recording_open_file(
                out, path.encode() if isinstance(path, str) else path, _ffi.NULL, err)
        if rc < 0:
            raise _error(err, self.name)
        self._rec = out[0]
        self._walk = 0  # which chunk walk is current (one at a time)
        self.errors = []  # every Error reported (warned or raised) while reading

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def close(self):
        if getattr(self, "_rec", _ffi.NULL) != _ffi.NULL:
            _lib.jfr_recording_free(self._rec)
            self._rec = _ffi.NULL
            self._keep = None

    def _handle(self):
        if self._rec == _ffi.NULL:
            raise ValueError("recording is closed")
        return self._rec

    def __repr__(self):
        return "<jfr.Recording %r %s, %d bytes>" % (self.name, self.container, self.size)

    @property
    def container(self):
        """"raw", "gzip", "lz4", "xz" or "bzip2"."""
        return _ffi.string(_lib.jfr_recording_container(self._handle())).decode()

    @property
    def size(self):
        """Size of the (decompressed) recording in bytes."""
        return _lib.jfr_recording_size(self._handle())

    @property
    def start_nanos(self):
        """The earliest chunk start (ns since the epoch, UTC), or None."""
        out = _ffi.new("int64_t *")
        if _lib.jfr_recording_start_nanos(out, self._handle()) < 0:
            return None
        return out[0]

    def _damaged(self, c_err):
        e = _error(c_err, self.name)
        self.errors.append(e)
        if isinstance(e, MemoryError) or self.strict:
            raise e
        _warnings.warn(DamagedInputWarning(e), stacklevel=3)

    def chunks(self):
        """The chunks, first to last, as Chunk objects. A chunk is valid until
        the walk moves on (like the C API); a new walk (chunks(), events(),
        profile(), ...) ends earlier ones. Damaged chunks are reported as
        DamagedInputWarning (Error with strict) and skipped as jfrtool does."""
        rec = self._handle()
        self._walk += 1
        walk = self._walk
        _lib.jfr_recording_rewind(rec)
        out = _ffi.new("jfr_chunk **")
        while True:
            if self._walk != walk:
                raise RuntimeError("a newer walk over %s started" % self.name)
            rc = _lib.jfr_recording_next_chunk(out, rec)
            if rc == 1:
                return
            if rc < 0:
                self._damaged(_lib.jfr_recording_error(rec))
                continue
            chunk = Chunk(self, out[0], walk)
            try:
                yield chunk
            finally:
                chunk._valid = False
                # pool warnings are known once the chunk has been used
                w = _lib.jfr_chunk_warning(out[0])
                if w != _ffi.NULL and self._walk == walk:
                    self._damaged(w)

    def event_types(self, pattern=None):
        """Names of the event types the chunks declare, sorted; with
        `pattern` (names, short names, globs, comma lists: as events()
        takes them) only those it selects, and UnknownEventTypeError when
        an item of it selects none."""
        if pattern is None:
            names = set()
            for c in self.chunks():
                names.update(t.name for t in c.types() if t.is_event)
            return sorted(names)
        f = _type_filter(pattern, _BY_NAME)
        tset = _type_set([self])
        _check_filter(f, _BY_NAME, tset, self.name)
        return sorted(_str(_lib.jfr_type_set_name(tset, i))
                      for i in range(_lib.jfr_type_set_count(tset))
                      if _lib.jfr_type_set_matches(tset, i, f))

    def metadata(self):
        """{type name: Type} over all chunks (the first declaration of each
        name wins); Type objects are plain data and outlive the chunks."""
        types = {}
        for c in self.chunks():
            for t in c.types():
                types.setdefault(t.name, t)
        return types

    def count_events(self):
        """{event type: number of events} over all chunks, as jfrtool summary
        counts them (without decoding them)."""
        counts = {}
        for c in self.chunks():
            for name, n in c.count_events().items():
                counts[name] = counts.get(name, 0) + n
        return counts

    def events(self, *types, categories=None, datetimes=False):
        """Events of the event types named (none: all), in file order, chunk
        after chunk. Types are named as the JDK's jfr print --events names
        them: full names ("jdk.ExecutionSample"), short names
        ("ExecutionSample"), globs ("jdk.GC*") and comma lists;
        `categories` ("GC", "JVM,Java*") keeps the types in those
        categories (with types: those both select). A name that selects no
        type of any chunk raises UnknownEventTypeError before any event,
        with the nearest names. Values are decoded when asked for
        (ev["field"], ev.to_dict()); an Event is valid until the next one.
        Timestamps are integers (ns since the epoch) or, with
        datetimes=True, aware datetime objects in UTC; durations are
        integers in ns."""
        sel = None
        if types or categories:
            sel = _Selection(types, categories)
            sel.check(_type_set([self]), self.name)
        for chunk in self.chunks():
            yield from chunk._events(sel, datetimes)

    def profile(self, kind=None, **options):
        """The profile of this recording: see jfr.profile."""
        return profile([self], kind, **options)

    def hot_methods(self, kind="exec", limit=None, **options):
        """Rows by top frame: see jfr.hot_methods."""
        return hot_methods([self], kind, limit=limit, **options)

    def leaks(self, **options):
        """Leak candidates: see jfr.leaks."""
        return leaks([self], **options)

    def report_data(self, **options):
        """The report's overview, settings, series and losses: see
        jfr.report_data."""
        return report_data([self], **options)

    def findings(self, rules=None, rules_file=None):
        """The findings of the rules: see jfr.findings."""
        return findings([self], rules=rules, rules_file=rules_file)

    def view(self, name):
        """A view of `jfrtool view`: see jfr.view."""
        return view([self], name)

    def view_text(self, name):
        """A view as `jfrtool view` writes it: see jfr.view_text."""
        return view_text([self], name)

    def sql(self, query, params=()):
        """The rows of an SQL query over this recording: see jfr.sql."""
        return sql([self], query, params)


# ---- metadata ---------------------------------------------------------------------


# Field.content by jfr_content: what the field's annotations say its values are
_CONTENTS = {
    _lib.JFR_CONTENT_NONE: None,
    _lib.JFR_CONTENT_TIMESTAMP: "timestamp",
    _lib.JFR_CONTENT_TIMESPAN: "timespan",
    _lib.JFR_CONTENT_PERCENTAGE: "percentage",
    _lib.JFR_CONTENT_BYTES: "bytes",
    _lib.JFR_CONTENT_BITS: "bits",
    _lib.JFR_CONTENT_BYTES_PER_SECOND: "bytes-per-second",
    _lib.JFR_CONTENT_BITS_PER_SECOND: "bits-per-second",
    _lib.JFR_CONTENT_MEMORY_ADDRESS: "memory-address",
    _lib.JFR_CONTENT_FREQUENCY: "frequency",
}
_AMOUNTS = ("bytes", "bits", "bytes-per-second", "bits-per-second")


class Field:
    """A field of a type: name, type_name, is_array, is_pooled, label; what
    its annotations say its values are (the library's jfr_field_content):
    content ("timestamp", "timespan", "percentage", "bytes", "bits",
    "bytes-per-second", ... or None), unit (of a time or an amount),
    unsigned, has_content_type; and, from them, the units timestamp,
    timespan and data_amount (None unless the content is one)."""

    __slots__ = ("name", "type_name", "is_array", "is_pooled", "label", "content", "unit",
                 "has_content_type", "timestamp", "timespan", "data_amount", "unsigned")

    def __init__(self, f):
        t = _lib.jfr_field_type(f)
        self.name = _str(_lib.jfr_field_name(f))
        self.type_name = _str(_lib.jfr_type_name(t)) if t != _ffi.NULL else None
        self.is_array = bool(_lib.jfr_field_is_array(f))
        self.is_pooled = bool(_lib.jfr_field_is_pooled(f))
        self.label = _str(_lib.jfr_field_label(f))
        self.content = _CONTENTS.get(_lib.jfr_field_content(f))
        self.unit = _str(_lib.jfr_field_content_unit(f))
        self.has_content_type = bool(_lib.jfr_field_has_content_type(f))
        self.timestamp = self.unit if self.content == "timestamp" else None
        self.timespan = self.unit if self.content == "timespan" else None
        self.data_amount = self.unit if self.content in _AMOUNTS else None
        self.unsigned = bool(_lib.jfr_field_is_unsigned(f))

    def __repr__(self):
        return "<jfr.Field %s: %s%s>" % (self.name, self.type_name,
                                         "[]" if self.is_array else "")


class Type:
    """A type of a chunk's metadata, copied out: name, id, super_type, label,
    is_event, is_simple, fields (list of Field)."""

    __slots__ = ("name", "id", "super_type", "label", "is_event", "is_simple", "fields")

    def __init__(self, t):
        self.name = _str(_lib.jfr_type_name(t))
        self.id = _lib.jfr_type_id(t)
        self.super_type = _str(_lib.jfr_type_super(t))
        self.label = _str(_lib.jfr_type_label(t))
        self.is_event = bool(_lib.jfr_type_is_event(t))
        self.is_simple = bool(_lib.jfr_type_is_simple(t))
        self.fields = [Field(_lib.jfr_type_field_at(t, i))
                       for i in range(_lib.jfr_type_field_count(t))]

    def __repr__(self):
        return "<jfr.Type %s (%d fields)>" % (self.name, len(self.fields))


class Chunk:
    """One chunk, valid while its walk is on it. `index`, `header` (a dict
    of the decoded chunk header), `unfinished`, types(), count_events(),
    events()."""

    def __init__(self, rec, c, walk, error=None):
        self.recording = rec
        self._c = c
        self._walk = walk
        self._valid = True
        # where the library leaves this chunk's errors: its recording's, or
        # for a followed chunk the flush's (jfr.follow)
        self._err = error
        self._fields = {}  # field pointer -> (name, converter), this chunk only
        # pool entries decoded once per chunk: (type, key, datetimes) -> value
        self._pool = {}
        self._cut = 0  # values cut by the depth bound or a cycle so far
        self._nanos = _ffi.new("int64_t *")  # jfr_chunk_time_nanos's answer
        self.index = _lib.jfr_chunk_index(c)
        h = _lib.jfr_chunk_header(c)
        self.header = {k: getattr(h, k) for k in (
            "major", "minor", "chunk_size", "constant_pool_offset", "metadata_offset",
            "start_nanos", "duration_nanos", "start_ticks", "ticks_per_second",
            "state", "flags", "file_offset")}
        self.unfinished = bool(_lib.jfr_chunk_is_unfinished(c))

    def _handle(self):
        if not self._valid or self.recording._walk != self._walk:
            raise RuntimeError("chunk %d of %s is no longer current"
                               % (self.index, self.recording.name))
        return self._c

    def __repr__(self):
        return "<jfr.Chunk %d of %s>" % (self.index, self.recording.name)

    def _error(self):
        if self._err is not None:
            return self._err
        return _lib.jfr_recording_error(self.recording._rec)

    def types(self):
        c = self._handle()
        return [Type(_lib.jfr_chunk_type_at(c, i))
                for i in range(_lib.jfr_chunk_type_count(c))]

    def count_events(self):
        """{event type: count} of this chunk (events of declared types)."""
        c = self._handle()
        n = _lib.jfr_chunk_type_count(c)
        counts = _ffi.new("uint64_t[]", max(n, 1))
        sizes = _ffi.new("uint64_t[]", max(n, 1))
        rc = _lib.jfr_chunk_count_records(counts, sizes, _ffi.NULL, c)
        if rc < 0:
            self.recording._damaged(self._error())
        out = {}
        for i in range(n):
            if counts[i]:
                t = _lib.jfr_chunk_type_at(c, i)
                name = _str(_lib.jfr_type_name(t))
                out[name] = out.get(name, 0) + counts[i]
        return out

    def events(self, *types, categories=None, datetimes=False, ordered=False):
        """Events of this chunk, as Recording.events: a name that selects
        no type of this chunk raises UnknownEventTypeError. In file order,
        or with ordered=True by end time (as the JDK's stream hands out each
        flush of a followed recording)."""
        sel = None
        if types or categories:
            sel = _Selection(types, categories)
            out = _ffi.new("jfr_type_set **")
            if _lib.jfr_type_set_new(out, _ffi.NULL) < 0 or \
                    _lib.jfr_type_set_add_chunk(out[0], self._handle()) < 0:
                raise MemoryError("event type set")
            sel.check(_ffi.gc(out[0], _lib.jfr_type_set_free), self.recording.name)
        return self._events(sel, datetimes, ordered)

    def _events(self, sel, datetimes, ordered=False):
        c = self._handle()
        it = _ffi.new("jfr_event_iter **")
        names = [_ffi.new("char[]", t) for t in sel.chunk_names(c)] if sel else []
        if sel and not names:
            return  # the chunk has none of the types
        arr = _ffi.new("const char *[]", names) if names else _ffi.NULL
        flags = _native.ITER_BY_END_TIME if ordered else 0
        if _lib.jfr_event_iter_new(it, c, arr, len(names), flags) < 0:
            raise _error(self._error(), self.recording.name)
        # the iterator must go before its chunk: a followed recording
        # frees the iterators of a flush before it takes the next one
        held = [_ffi.gc(it[0], _lib.jfr_event_iter_free)]
        getattr(self.recording, "_iters", []).append(held)
        out = _ffi.new("const jfr_event **")
        seq = 0
        try:
            while True:
                self._handle()  # the chunk is still current
                rc = _lib.jfr_event_next(out, held[0])
                if rc == 1:
                    return
                if rc < 0:
                    self.recording._damaged(self._error())
                    return
                seq += 1
                ev = Event(self, out[0], datetimes)
                yield ev
                ev._valid = False
        finally:
            if held[0] is not None:
                _ffi.release(held[0])
                held[0] = None

    # values ----------------------------------------------------------------------

    def _field_info(self, f):
        k = _key(f)
        info = self._fields.get(k)
        if info is None:
            fld = Field(f)
            conv = None
            if fld.timestamp:
                conv = ("ts", _lib.jfr_field_time_unit(f))
            elif fld.timespan:
                conv = ("span", _lib.jfr_field_time_unit(f))
            elif fld.unsigned:
                conv = ("unsigned", None)
            info = self._fields[k] = (fld.name, conv)
        return info

    def _int(self, v, conv, datetimes):
        if conv is None:
            return getattr(v, "as").i
        what, unit = conv
        if what == "unsigned":
            return v.bits
        x = getattr(v, "as").i
        if x in (-(1 << 63), (1 << 63) - 1):
            return x  # Long.MIN/MAX_VALUE: no value (print shows N/A)
        # the library's conversion; a unit it does not know leaves x as it is
        _lib.jfr_chunk_time_nanos(self._nanos, self._c, unit, x)
        x = self._nanos[0]
        if what == "ts" and datetimes:
            return _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc) + \
                _dt.timedelta(microseconds=x // 1000)
        return x

    def _decode(self, v, datetimes, depth, path):
        kind = v.kind
        if kind == 2:  # INT
            conv = self._field_info(v.field)[1] if v.field != _ffi.NULL else None
            return self._int(v, conv, datetimes)
        if kind == 4:
            return _jstr(getattr(v, "as").str)
        if kind == 3:
            return getattr(v, "as").f
        if kind == 1:
            return bool(getattr(v, "as").boolean)
        if kind == 0:
            return None
        # objects and arrays: children, with a bound on depth and no cycles
        if depth >= _MAX_DEPTH:
            self._cut += 1
            return ...
        mark = None
        if v.pooled:
            mark = (_key(v.type), v.key, datetimes)
            hit = self._pool.get(mark)
            if hit is not None:
                return hit
            if mark in path:
                self._cut += 1
                return ...
            path.add(mark)
            cut = self._cut
        cur = _ffi.new("jfr_cursor *")
        child = _ffi.new("jfr_value *")
        _lib.jfr_value_iter(cur, v)
        try:
            if kind == 6:  # ARRAY
                items = []
                while True:
                    rc = _lib.jfr_cursor_next(child, cur)
                    if rc != 0:
                        break
                    items.append(self._decode(child, datetimes, depth + 1, path))
            else:
                simple = v.type != _ffi.NULL and _lib.jfr_type_is_simple(v.type)
                items = {}
                while True:
                    rc = _lib.jfr_cursor_next(child, cur)
                    if rc != 0:
                        break
                    name = self._field_info(child.field)[0] \
                        if child.field != _ffi.NULL else str(len(items))
                    items[name] = self._decode(child, datetimes, depth + 1, path)
                if simple and len(items) == 1:
                    items = next(iter(items.values()))
            if rc < 0:
                self.recording._damaged(self._error())
            elif mark is not None and self._cut == cut:
                self._pool[mark] = items  # whole: shared by later references
            return items
        finally:
            if mark is not None:
                path.discard(mark)


_MAX_DEPTH = 32


class Event:
    """One event, valid until the iteration moves on (copy what you keep with
    to_dict()). `type` (name), `offset`, `size`, `start_time` (ns since the
    epoch, or a datetime), ev["field"] for one field decoded, to_dict() for
    all. Objects become dicts, arrays lists, pooled values are followed (a
    cycle or nesting deeper than 32 shows as Ellipsis); a pool entry is
    decoded once per chunk and the same object is shared by every event
    that refers to it (copy before changing it)."""

    __slots__ = ("_chunk", "_ev", "_valid", "_datetimes", "type")

    def __init__(self, chunk, ev, datetimes):
        self._chunk = chunk
        self._ev = ev
        self._valid = True
        self._datetimes = datetimes
        t = _lib.jfr_event_type(ev)
        self.type = _str(_lib.jfr_type_name(t)) if t != _ffi.NULL else None

    def _handle(self):
        if not self._valid:
            raise RuntimeError("event is no longer current: keep ev.to_dict() instead")
        self._chunk._handle()
        return self._ev

    def __repr__(self):
        return "<jfr.Event %s at %d>" % (self.type, self.offset)

    @property
    def offset(self):
        return _lib.jfr_event_offset(self._handle())

    @property
    def size(self):
        return _lib.jfr_event_size(self._handle())

    @property
    def start_time(self):
        ev = self._handle()
        ns = _lib.jfr_chunk_ticks_to_epoch_nanos(self._chunk._c,
                                                _lib.jfr_event_start_ticks(ev))
        if self._datetimes:
            return _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc) + \
                _dt.timedelta(microseconds=ns // 1000)
        return ns

    def __getitem__(self, name):
        v = _ffi.new("jfr_value *")
        rc = _lib.jfr_event_field(v, self._handle(), name.encode())
        if rc == -9:
            raise KeyError(name)
        if rc < 0:
            raise _error(self._chunk._error(),
                         self._chunk.recording.name)
        return self._chunk._decode(v, self._datetimes, 0, set())

    def get(self, name, default=None):
        try:
            return self[name]
        except KeyError:
            return default

    def to_dict(self):
        v = _ffi.new("jfr_value *")
        if _lib.jfr_event_value(v, self._handle()) < 0:
            raise _error(self._chunk._error(),
                         self._chunk.recording.name)
        return self._chunk._decode(v, self._datetimes, 0, set())


# ---- rows -------------------------------------------------------------------------


class Rows(list):
    """A list of dicts (one per row, the same keys in each); to_pandas()
    gives a pandas DataFrame when pandas is installed."""

    def to_pandas(self):
        import pandas  # optional: only this method needs it

        return pandas.DataFrame(list(self))


# ---- profiles ---------------------------------------------------------------------


def kinds():
    """The profile kinds libjfr knows, as Rows: name, description, unit,
    sources (a list of (event type, weight field or None, group, thread
    states kept or None, class field or None)); per chunk a kind reads the
    first group with events or enabled (doc/profiles.md)."""
    n = _ffi.new("size_t *")
    k = _lib.jfr_profile_kinds(n)
    rows = Rows()
    for i in range(n[0]):
        srcs = []
        for j in range(k[i].nsources):
            src = k[i].sources[j]
            states = None
            if src.states != _ffi.NULL:
                states, m = [], 0
                while src.states[m] != _ffi.NULL:
                    states.append(_str(src.states[m]))
                    m += 1
            srcs.append((_str(src.event_type), _str(src.weight_field), src.group, states,
                         _str(src.class_field)))
        rows.append({"name": _str(k[i].name), "description": _str(k[i].description),
                     "unit": _str(_lib.jfr_unit_name(k[i].count_unit)),
                     "sources": srcs})
    return rows


def _frame_text(f, lines, annotate):
    """Frame `f` (a jfr_profile_frame *) as jfrtool folded writes it:
    libjfr's jfr_profile_frame_text."""
    flags = _lib.JFR_FRAME_TEXT_FOLDED
    if lines:
        flags |= _lib.JFR_FRAME_TEXT_LINES
    if annotate:
        flags |= _lib.JFR_FRAME_TEXT_ANNOTATE
    n = _lib.jfr_profile_frame_text(_ffi.NULL, 0, f, flags)
    buf = _ffi.new("char[]", n + 1)
    _lib.jfr_profile_frame_text(buf, n + 1, f, flags)
    return _ffi.string(buf, n).decode("utf-8", "replace")


def folded_text(name, line=-1, kind=0, synthetic=False, lines=False, annotate=False):
    """A frame as jfrtool folded writes it (design.md, "Folded stacks"):
    the name, ":LINE" with `lines`, spaces, ';' and line breaks made '_',
    then with `annotate` the frame-type suffix (_[j] JIT or C1, _[i]
    inlined, _[0] interpreted, _[k] kernel, none for native and synthetic
    frames). libjfr writes it (jfr_profile_frame_text)."""
    f = _ffi.new("jfr_profile_frame *")
    cname = _ffi.new("char[]", name.encode("utf-8"))
    f.name = cname
    f.line = line
    f.kind = kind
    f.synthetic = bool(synthetic)
    return _frame_text(f, lines, annotate)


def _strip_kind_suffix(text):
    """(text without its frame-type suffix, the jfr_frame_kind it names, 0
    when none): libjfr's jfr_frame_kind_of_suffix."""
    raw = text.encode("utf-8")
    n = _ffi.new("size_t *")
    kind = _lib.jfr_frame_kind_of_suffix(n, raw, len(raw))
    return raw[:n[0]].decode("utf-8", "replace"), kind


def _time(t, start):
    """--from/--to: epoch ns (int), a datetime (naive: UTC), a timedelta or
    an offset string from the start ("10s", "500ms", "2m"; a bare number
    is seconds), or an ISO-8601 string."""
    if t is None:
        return 0
    if isinstance(t, bool):
        raise TypeError("a time, not a bool")
    if isinstance(t, int):
        return t
    if isinstance(t, _dt.datetime):
        if t.tzinfo is None:
            t = t.replace(tzinfo=_dt.timezone.utc)
        d = t - _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
        return (d.days * 86400 + d.seconds) * 10 ** 9 + d.microseconds * 1000
    if isinstance(t, _dt.timedelta):
        return (start or 0) + (t.days * 86400 + t.seconds) * 10 ** 9 + t.microseconds * 1000
    s = str(t)
    out = _ffi.new("int64_t *")
    # jfr_parse_time: ISO-8601, or an offset from the start
    if _lib.jfr_parse_time(out, s.encode(), start or 0) == 0:
        return out[0]
    raise ValueError("a time needs ISO-8601 or an offset such as 10s, not %r" % s)


class Node:
    """A call-tree node: `name` (frame text, with ":LINE" when the profile
    has lines), `frame` (dict: name, class_name, method, signature, line,
    kind, synthetic), `total`, `self`, `children` (sorted by name)."""

    __slots__ = ("name", "frame", "total", "self", "children")

    def __init__(self, name, frame, total, self_):
        self.name, self.frame, self.total, self.self = name, frame, total, self_
        self.children = []

    def __repr__(self):
        return "<jfr.Node %s total=%d self=%d, %d children>" % (
            self.name, self.total, self.self, len(self.children))

    def walk(self, depth=0):
        """(depth, node) pairs in pre-order."""
        yield depth, self
        for c in self.children:
            yield from c.walk(depth + 1)


class Profile:
    """Stacks of one kind of sample, summed: see jfr.profile. Add recordings
    with add(), other profiles with merge(); read folded(), tree(), total,
    samples, unit, cpu (CPU-time accounting), lost_stacks. `event_type` is
    a full name, as in C (a recording without it adds nothing); jfr.profile
    resolves short names and globs against the recordings and raises for
    a name none of them declares."""

    def __init__(self, kind=None, event_type=None, weight=None, thread=None,
                 start_nanos=0, end_nanos=0, include=None, exclude=None,
                 threads=False, lines=False, annotate=False, normalize=False,
                 class_frames=True, flags=0):
        self.kind, self.event_type = kind, event_type
        self.lines, self.annotate = lines, annotate
        self.settings = dict(kind=kind, event_type=event_type, weight=weight,
                             thread=thread, start_nanos=start_nanos, end_nanos=end_nanos,
                             include=include, exclude=exclude, threads=threads,
                             lines=lines, annotate=annotate, normalize=normalize,
                             class_frames=class_frames, flags=flags)
        keep = []

        def c(s):
            if s is None:
                return _ffi.NULL
            b = _ffi.new("char[]", s.encode())
            keep.append(b)
            return b

        # the selection's rules (a kind or an event type, "count",
        # "period" only for cpu) are jfr_profile_build's: with no input it
        # makes the empty profile that recordings are added to
        bo = _ffi.new("jfr_profile_build_options *")
        _lib.jfr_profile_build_options_init(bo, _native.PROFILE_BUILD_OPTIONS_VERSION)
        known = kind and _lib.jfr_profile_kind_by_name(kind.encode()) != _ffi.NULL
        bo.event = c(kind if known else event_type or kind)
        bo.weight = c(weight)
        bo.thread_regex = c(thread)
        bo.include_regex = c(include)
        bo.exclude_regex = c(exclude)
        bo.from_nanos = start_nanos or 0
        bo.to_nanos = end_nanos or 0
        bo.flags = flags | (_native.PROFILE_THREADS if threads else 0) | \
            (_native.PROFILE_LINES if lines else 0) | \
            (_native.PROFILE_FRAME_KIND if annotate else 0) | \
            (_native.PROFILE_NORMALIZE if normalize else 0) | \
            (_native.PROFILE_CLASS_FRAMES if class_frames else 0)
        if not (event_type or kind):
            raise ValueError("a kind or an event type")
        out = _ffi.new("jfr_profile **")
        info = _ffi.new("jfr_profile_build_info *")
        err = _ffi.new("jfr_error *")
        if _lib.jfr_profile_build(out, info, _ffi.NULL, 0, bo, err) < 0:
            if info.refusal[0] != b"\0":
                raise ValueError(_str(info.refusal))
            raise _error(err, "profile")
        self._p = _ffi.gc(out[0], _lib.jfr_profile_free)
        self.selection = _str(info.selection)

    def _adopt(self, selection, kind, start, end, flags, shape):
        """The attributes of a profile jfr_profile_build made (jfr.profile)."""
        known = _lib.jfr_profile_kind_by_name(selection.encode()) != _ffi.NULL
        self.kind, self.event_type = (selection, None) if known else (None, selection)
        self.selection = selection
        self.lines, self.annotate = shape["lines"], shape["annotate"]
        self.settings = dict(kind=self.kind, event_type=self.event_type, start=start,
                             end=end, flags=flags, **shape)
        if kind is None:
            self.settings["kind"] = None  # the default kind, as asked

    def kind_samples(self, kind):
        """The samples kind `kind` (cpu, exec, native, wall) selects in the
        recordings added, counted next to this profile when it was made
        with the default kind (jfr.profile without `kind`; else 0)."""
        return _lib.jfr_profile_kind_samples(self._p, kind.encode())

    def hint(self):
        """None, or, when this profile's kind has under 1 % of the samples
        of another kind that counts samples, the line jfrtool prints: "only
        4 exec samples; --event wall has 29,867" (default kinds only)."""
        n = _lib.jfr_profile_kind_hint(_ffi.NULL, 0, self._p, (self.selection or "").encode())
        if n == 0:
            return None
        buf = _ffi.new("char[]", n + 1)
        _lib.jfr_profile_kind_hint(buf, n + 1, self._p, (self.selection or "").encode())
        return _str(buf)

    def add(self, recording):
        """Add every chunk of a recording (a Recording, path or bytes) and
        return the number of chunks read. Damage is reported as
        DamagedInputWarning, as jfrtool reports it; a recording of which no
        chunk could be read is what jfrtool calls unreadable (exit 2)."""
        own = not isinstance(recording, Recording)
        rec = open(recording) if own else recording
        taken = 0
        try:
            lost0 = _lib.jfr_profile_lost_stacks(self._p)
            n0 = _lib.jfr_profile_samples(self._p)
            for chunk in rec.chunks():
                taken += 1
                if _lib.jfr_profile_add_chunk(self._p, chunk._c) < 0:
                    rec._damaged(_lib.jfr_recording_error(rec._rec))
            lost = _lib.jfr_profile_lost_stacks(self._p) - lost0
            if lost:
                n = _lib.jfr_profile_samples(self._p) - n0
                _warnings.warn(DamagedInputWarning(Error(
                    -6, "%d of %d samples refer to stack traces the recording does not"
                    " define (damaged or cut constant pools?): counted on"
                    " [no_stack_trace]" % (lost, n), rec.name)), stacklevel=2)
        finally:
            if own:
                rec.close()
        return taken

    def add_chunk(self, chunk):
        """Add one Chunk: a chunk of a recording being walked, or what one
        flush of a followed recording added (jfr.follow: each event once)."""
        if _lib.jfr_profile_add_chunk(self._p, chunk._handle()) < 0:
            chunk.recording._damaged(chunk._error())
        return self

    def merge(self, other):
        """Add another profile of the same selection and shape."""
        rc = _lib.jfr_profile_merge(self._p, other._p)
        if rc == -2:
            raise MemoryError("profile merge")
        if rc < 0:
            raise ValueError("profiles of different selections or shapes")
        return self

    def save(self):
        """The profile as bytes (jfr_profile_save): frames once, stacks as
        frame ids with their weights; Profile.load makes it again in any
        process, merge_saved adds it to a profile."""
        out = _ffi.new("void **")
        size = _ffi.new("size_t *")
        rc = _lib.jfr_profile_save(out, size, self._p)
        if rc == -2:
            raise MemoryError("profile save")
        if rc < 0:
            raise ValueError("a profile made without a kind counts other kinds:"
                             " it cannot be saved")
        try:
            return bytes(_ffi.buffer(out[0], size[0]))
        finally:
            _lib.jfr_profile_bytes_free(out[0])

    @classmethod
    def load(cls, data, name="jfr.Profile.load"):
        """The Profile saved in `data` (bytes of Profile.save); Error
        (code -6, `offset` the bad byte) when they are malformed."""
        out = _ffi.new("jfr_profile **")
        err = _ffi.new("jfr_error *")
        if _lib.jfr_profile_load(out, data, len(data), _ffi.NULL, err) < 0:
            raise _error(err, name)
        self = cls.__new__(cls)
        self._p = _ffi.gc(out[0], _lib.jfr_profile_free)
        flags = _lib.jfr_profile_flags(self._p)
        self.kind = self.event_type = self.selection = None
        self.lines = bool(flags & _native.PROFILE_LINES)
        self.annotate = bool(flags & _native.PROFILE_FRAME_KIND)
        self.settings = None
        return self

    def merge_saved(self, data, name="jfr.Profile.merge_saved"):
        """Add the profile saved in `data` (Profile.save): Error when the
        bytes are malformed, ValueError when they hold another selection,
        other flags or another unit."""
        err = _ffi.new("jfr_error *")
        rc = _lib.jfr_profile_merge_saved(self._p, data, len(data), err)
        if rc == -1:
            raise ValueError(_ffi.string(err.message).decode("utf-8", "replace"))
        if rc == -2:
            raise MemoryError("profile merge")
        if rc < 0:
            raise _error(err, name)
        return self

    @property
    def total(self):
        return _lib.jfr_profile_total(self._p)

    @property
    def samples(self):
        return _lib.jfr_profile_samples(self._p)

    @property
    def lost_stacks(self):
        return _lib.jfr_profile_lost_stacks(self._p)

    @property
    def unit(self):
        """"samples", "events", "ns", "bytes" or "" (a plain number)."""
        return _str(_lib.jfr_unit_name(_lib.jfr_profile_unit(self._p)))

    @property
    def cpu(self):
        """CPU-time accounting (JEP 509) as a dict; zeros for other kinds."""
        a = _lib.jfr_profile_cpu(self._p)
        return {k: getattr(a, k) for k in (
            "samples", "with_stack", "failed", "biased", "lost", "period_ns",
            "lost_events", "failed_period_ns", "biased_period_ns")}

    def _frame(self, fid):
        f = _lib.jfr_profile_frame_at(self._p, fid)
        return {"name": _str(f.name), "class_name": _str(f.class_name),
                "method": _str(f.method), "signature": _str(f.signature),
                "line": f.line, "kind": f.kind, "synthetic": bool(f.synthetic)}

    def folded(self):
        """{folded stack: weight}: frames from the root joined by ';', as the
        lines of `jfrtool folded` with the same options (stacks whose text
        comes out equal are summed; stacks of weight 0 are left out), in
        the byte order of the lines. The lines of folded_text, split."""
        out = {}

        def add(piece):
            lines = piece.split(b"\n")
            lines.pop()  # after the piece's last "\n"
            for line in lines:
                stack, _, weight = line.decode("utf-8", "replace").rpartition(" ")
                # lines whose bytes only "replace" made equal are summed
                out[stack] = out.get(stack, 0) + int(weight)

        self._write_folded(add)
        return out

    def folded_text(self):
        """The folded stacks as `jfrtool folded` with the same options
        prints them: one line "FRAME;...;FRAME WEIGHT\n" per distinct stack
        text, lines in byte order. libjfr writes it (jfr_profile_write_folded)."""
        parts = []
        self._write_folded(lambda piece: parts.append(piece.decode("utf-8", "replace")))
        return "".join(parts)

    def _write_folded(self, take):
        """take(bytes) for each piece of the library's folded text, whole
        lines of about 64 KiB: each is split or decoded while it is in the
        cache, and the whole text is never held as bytes."""
        flags = (_lib.JFR_FRAME_TEXT_LINES if self.lines else 0) | \
            (_lib.JFR_FRAME_TEXT_ANNOTATE if self.annotate else 0)
        failed = []

        def sink(user, text, size):
            try:
                take(_ffi.unpack(text, size))
            except BaseException as e:  # raised again below, not lost in C
                failed.append(e)
                return 1
            return 0

        rc = _lib.jfr_profile_write_folded(self._p, flags,
                                           _ffi.callback("jfr_text_sink", sink), _ffi.NULL)
        if failed:
            raise failed[0]
        if rc < 0:
            raise MemoryError("folded text")

    def tree(self):
        """The call tree: the root Node ("all") with children, totals and
        self weights (jfr_profile_node_*)."""
        p = self._p
        if _lib.jfr_profile_build_tree(p) < 0:
            raise MemoryError("call tree")
        n = _lib.jfr_profile_node_count(p)
        root = Node("all", None, _lib.jfr_profile_node_total(p, 0),
                    _lib.jfr_profile_node_self(p, 0))
        stack = [root]
        frames = {}
        for i in range(1, n):
            d = _lib.jfr_profile_node_depth(p, i)
            fid = _lib.jfr_profile_node_frame(p, i)
            fr = frames.get(fid)
            if fr is None:
                fr = frames[fid] = self._frame(fid)
            name = fr["name"]
            if self.lines and fr["line"] >= 0:
                name += ":%d" % fr["line"]
            node = Node(name, fr, _lib.jfr_profile_node_total(p, i),
                        _lib.jfr_profile_node_self(p, i))
            del stack[d:]
            stack[-1].children.append(node)
            stack.append(node)
        return root


def _resolve_each(name, first_rec, others):
    """_resolve_event_type over the first recording (open) and the other
    sources, opened quietly for it: the main pass reports their damage."""
    recs, opened = [first_rec] if first_rec is not None else [], []
    with _warnings.catch_warnings():
        _warnings.simplefilter("ignore")
        try:
            for src in others:
                if isinstance(src, Recording):
                    recs.append(src)
                    continue
                try:
                    opened.append(Recording(src))
                except Error:
                    continue
                recs.append(opened[-1])
            return _resolve_event_type(name, recs)
        finally:
            for r in opened:
                r.close()


def default_kind(recording):
    """The kind jfrtool picks without --event: "cpu" when the recording has
    CPU-time samples, else "exec"."""
    own = not isinstance(recording, Recording)
    rec = open(recording) if own else recording
    try:
        out = _ffi.new("const char **")
        if _lib.jfr_recording_default_kind(out, rec._rec) < 0:
            return "exec"
        return _str(out[0])
    finally:
        if own:
            rec.close()


def _as_list(sources):
    if isinstance(sources, (str, bytes, bytearray, memoryview, Recording)) or \
            hasattr(sources, "__fspath__"):
        return [sources]
    return list(sources)


def profile(sources, kind=None, *, weight=None, thread=None, start=None, end=None,
            include=None, exclude=None, threads=False, lines=False, annotate=False,
            normalize=False, class_frames=True, errors="warn", _flags=0):
    """The profile of one or more recordings (paths, bytes or Recording
    objects), merged as `jfrtool folded FILE...` merges them.

    kind: a profile kind (jfr.kinds(): cpu, exec, native, wall, alloc, lock,
      wait, io, exceptions, ...) or a full event type name with a stack
      trace; default as jfrtool: cpu when the first recording has CPU-time
      samples, else exec.
    weight: "count" (each event counts 1), "period" (cpu by samplingPeriod)
      or an integer field name; default the kind's weights.
    thread: regex on the thread name; start/end: the time range [start, end)
      as epoch ns, datetimes, ISO-8601 strings or offsets from the start of
      the first recording ("10s", timedelta); include/exclude: regexes on
      frame names; threads/lines/annotate/normalize: the SHAPE options;
      class_frames: lock, wait and alloc stacks end with the class of the
      monitor, parked object or allocated objects (as jfrtool without
      --no-class-frames).
    errors: "warn" (damage is a DamagedInputWarning and a recording that
      cannot be opened is skipped, as jfrtool does), or "raise".
    """
    items = _as_list(sources)
    if not items:
        raise ValueError("no recordings")
    if kind is not None and _lib.jfr_profile_kind_by_name(kind.encode()) == _ffi.NULL:
        # an event type any input declares, by full or short name
        first = items[0]
        try:
            first_rec = first if isinstance(first, Recording) else Recording(first)
        except Error:
            first_rec = None
        try:
            kind = _resolve_each(kind, first_rec, items[1:])
        finally:
            if first_rec is not None and first_rec is not first:
                first_rec.close()
    return _Build(items, errors == "raise").run(
        kind, weight=weight, thread=thread, start=start, end=end, include=include,
        exclude=exclude, threads=threads, lines=lines, annotate=annotate,
        normalize=normalize, class_frames=class_frames, flags=_flags)


class _Build:
    """One jfr_profile_build call over `items`: the library picks the
    default kind, checks the selection, parses times as text and reads
    every input; the callbacks open each input in its turn and turn each
    chunk's damage into a warning (an Error with strict), as Profile.add."""

    def __init__(self, items, strict):
        self.items, self.strict = items, strict
        self.recs = [None] * len(items)
        self.pending = []  # exceptions raised in a callback, raised after
        self.unreadable = []

    def _open(self, i, user):
        src = self.items[i]
        try:
            rec = src if isinstance(src, Recording) else Recording(src, strict=self.strict)
            handle = rec._handle()
        except Error as e:
            if self.strict:
                self.pending.append(e)
            else:
                _warnings.warn(DamagedInputWarning(e), stacklevel=4)  # the caller of jfr.profile
            return _ffi.NULL
        except BaseException as e:
            self.pending.append(e)
            return _ffi.NULL
        self.recs[i] = rec
        # read from the first chunk, as Recording.chunks(): a new walk
        rec._walk += 1
        _lib.jfr_recording_rewind(handle)
        return handle

    def _report(self, r, user):
        rec = self.recs[r.input]
        try:
            if r.chunk != _ffi.NULL:
                for e in (r.chunk.error, r.chunk.decode_error, r.chunk.warning):
                    if e != _ffi.NULL and not (self.strict and self.pending):
                        rec._damaged(e)
                return
            if r.lost_stacks:
                _warnings.warn(DamagedInputWarning(Error(
                    -6, "%d of %d samples refer to stack traces the recording does not"
                    " define (damaged or cut constant pools?): counted on"
                    " [no_stack_trace]" % (r.lost_stacks, r.samples), rec.name)),
                    stacklevel=4)  # the caller of jfr.profile
            if not r.chunks:
                self.unreadable.append(rec.errors[0] if rec.errors else
                                       Error(-4, "no chunk could be read", rec.name))
        except BaseException as e:
            self.pending.append(e)

    def run(self, kind, start, end, flags, **shape):
        keep = []

        def c(v):
            if v is None:
                return _ffi.NULL
            keep.append(_ffi.new("char[]", v.encode()))
            return keep[-1]

        bo = _ffi.new("jfr_profile_build_options *")
        _lib.jfr_profile_build_options_init(bo, _native.PROFILE_BUILD_OPTIONS_VERSION)
        bo.event = c(kind)
        for name, field in (("from", "from_nanos"), ("to", "to_nanos")):
            ns, text = _time_option(start if name == "from" else end)
            setattr(bo, field, ns)
            setattr(bo, name, c(text))
        prof = Profile.__new__(Profile)
        _shape(bo, c, flags, **shape)
        bo.threads = 1  # as Profile.add: the caller's process decides on threads
        on_open = _ffi.callback("jfr_recording *(size_t, void *)", self._open)
        on_report = _ffi.callback("void (const jfr_profile_build_report *, void *)",
                                  self._report)
        bo.open, bo.report = on_open, on_report
        out = _ffi.new("jfr_profile **")
        info = _ffi.new("jfr_profile_build_info *")
        err = _ffi.new("jfr_error *")
        inputs = _ffi.new("jfr_recording *[]", len(self.items))
        try:
            rc = _lib.jfr_profile_build(out, info, inputs, len(self.items), bo, err)
        finally:
            for rec, src in zip(self.recs, self.items):
                if rec is not None and rec is not src:
                    rec.close()
        if rc < 0:
            if info.refusal[0] != b"\0":
                raise ValueError(_str(info.refusal))
            raise _error(err, "profile")
        prof._p = _ffi.gc(out[0], _lib.jfr_profile_free)
        if self.pending:
            raise self.pending[0]
        if len(self.unreadable) == info.inputs_read:
            # as jfrtool's exit status 2: nothing could be read at all
            raise self.unreadable[0] if self.unreadable else \
                Error(-3, "no recording could be read", "profile")
        prof._adopt(_str(info.selection), kind, start, end, flags, shape)
        return prof


def _time_option(t):
    """A --from/--to given to profile(): (epoch ns, None), or (0, text)
    for jfr_profile_build to read (jfr_parse_time: ISO-8601 or an offset
    from the first input's start)."""
    if t is None:
        return 0, None
    if isinstance(t, _dt.timedelta):
        return 0, "%dns" % ((t.days * 86400 + t.seconds) * 10 ** 9 + t.microseconds * 1000)
    if isinstance(t, str):
        return 0, t
    return _time(t, 0), None


def _shape(bo, c, flags, weight, thread, include, exclude, threads, lines, annotate,
           normalize, class_frames):
    """The selection and SHAPE options into jfr_profile_build_options."""
    bo.weight = c(weight)
    bo.thread_regex = c(thread)
    bo.include_regex = c(include)
    bo.exclude_regex = c(exclude)
    bo.flags = flags | (_native.PROFILE_THREADS if threads else 0) | \
        (_native.PROFILE_LINES if lines else 0) | \
        (_native.PROFILE_FRAME_KIND if annotate else 0) | \
        (_native.PROFILE_NORMALIZE if normalize else 0) | \
        (_native.PROFILE_CLASS_FRAMES if class_frames else 0)


def hot_methods(sources, kind="exec", limit=None, **options):
    """Methods on top of the stack, most weight first (ties by name), as the
    hot-methods view of jfrtool reads them: Rows of method (with parameter
    types, "N/A" for samples without a stack), weight (samples for exec and
    cpu), percent (of the total). kind "cpu" gives cpu-time-hot-methods.
    `options` are those of jfr.profile."""
    options["class_frames"] = False  # rows by method, as the views
    prof = profile(sources, kind, _flags=_native.PROFILE_TOP_FRAME |
                   _native.PROFILE_SIGNATURES, **options)
    return _rows_from_leaves(prof, limit)


def _leaf_weights(prof):
    p = prof._p
    names = {}
    w = _ffi.new("uint64_t *")
    frames = _ffi.new("const uint32_t **")
    depth = _ffi.new("size_t *")
    for i in range(_lib.jfr_profile_stack_count(p)):
        if _lib.jfr_profile_stack(w, frames, depth, p, i) != 0 or not depth[0]:
            continue
        f = _lib.jfr_profile_frame_at(p, frames[0][depth[0] - 1])
        name = _str(f.name)
        if f.synthetic and name == "[no stack trace]":
            name = "N/A"
        names[name] = names.get(name, 0) + w[0]
    return names


def _rows_from_leaves(prof, limit, names=None):
    names = _leaf_weights(prof) if names is None else names
    total = sum(names.values())
    order = sorted(names.items(), key=lambda kv: (-kv[1], kv[0]))
    if limit:
        order = order[:limit]
    return Rows({"method": k, "weight": v, "percent": 100.0 * v / total if total else 0.0}
                for k, v in order)


def leaks(sources, threshold=None, keep_warmup=False, errors="warn"):
    """Leak candidates from old-object samples (jdk.OldObjectSample), best
    first, as jfrtool leaks ranks them: Rows of object (type), holder (the
    holding class), field, samples, share_of_root, share_of_all, relevance,
    root (GC root system and type), recording (index)."""
    lo = _ffi.new("jfr_leaks_options *")
    lo.version = _native.LEAKS_OPTIONS_VERSION
    if threshold is not None:
        lo.threshold = threshold
    lo.keep_warmup = keep_warmup
    out = _ffi.new("jfr_leaks **")
    err = _ffi.new("jfr_error *")
    if _lib.jfr_leaks_new(out, lo, err) < 0:
        raise _error(err, "leaks")
    lk = _ffi.gc(out[0], _lib.jfr_leaks_free)
    for src in _as_list(sources):
        try:
            rec = src if isinstance(src, Recording) else Recording(src,
                                                                   strict=errors == "raise")
        except Error as e:
            if errors == "raise":
                raise
            _warnings.warn(DamagedInputWarning(e), stacklevel=2)
            continue
        try:
            for chunk in rec.chunks():
                if _lib.jfr_leaks_add_chunk(lk, chunk._c) < 0:
                    rec._damaged(_lib.jfr_recording_error(rec._rec))
        finally:
            if rec is not src:
                rec.close()
    rows = Rows()
    if _lib.jfr_leaks_build_trees(lk) < 0:
        raise MemoryError("leak trees")
    for i in range(_lib.jfr_leaks_candidate_count(lk)):
        c = _lib.jfr_leaks_candidate_at(lk, i)
        node = _lib.jfr_leaks_node_at(lk, c.node)
        site = _lib.jfr_leaks_node_at(lk, c.site)
        tree = _lib.jfr_leaks_tree_at(lk, c.tree)
        field = _str(site.field) if site.field != _ffi.NULL else \
            ("[%d]" % site.array_index if site.array_index >= 0 else None)
        rows.append({
            "object": _str(node.type), "description": _str(node.description),
            "holder": _str(_lib.jfr_leaks_holder_name(lk, c.site)), "field": field,
            "samples": c.samples, "root_samples": c.root_samples,
            "share_of_root": c.share_of_root, "share_of_all": c.share_of_all,
            "relevance": c.relevance,
            "root": " ".join(x for x in (_str(tree.system), _str(tree.type)) if x)
            if tree != _ffi.NULL else None,
            "recording": c.recording})
    return rows


# ---- the report's data -------------------------------------------------------------


def _report_rows(getter, d):
    n = _ffi.new("size_t *")
    rows = getter(n, d)
    return {_str(rows[i].key): _str(rows[i].value) for i in range(n[0])}


def _report_series(d):
    n = _ffi.new("size_t *")
    series = _lib.jfr_report_data_series(n, d)
    out = {}
    for i in range(n[0]):
        s = series[i]
        columns = {}
        for c in range(s.ncols):
            v = s.values[c]
            columns[_str(s.cols[c])] = [None if v[k] != v[k] else v[k]
                                        for k in range(s.count)]
        out[_str(s.name)] = {
            "event_type": _str(s.event_type), "columns": columns,
            "text": [_str(s.texts[k]) if s.texts[k] != _ffi.NULL else None
                     for k in range(s.count)]}
    return out


def _report_lost(d):
    n = _ffi.new("size_t *")
    lost = _lib.jfr_report_data_lost(n, d)
    return [{"input": lost[i].input, "message": _str(lost[i].error.message),
             "chunk": lost[i].error.chunk, "offset": lost[i].error.offset,
             "rest_of_chunk": bool(lost[i].rest_of_chunk)} for i in range(n[0])]


def report_data(sources, bucket_nanos=1000000000):
    """What `jfrtool report` shows besides its profiles, read in one walk
    over the recordings in file order (jfr_report_data(3), one library
    call): a dict of
    summary (origin_nanos: time 0 of the series, the first chunk's start;
    end_nanos; chunks; bytes; inputs_read),
    overview and settings (dicts in the order first met: "JVM", "OS", ...;
    "jdk.ExecutionSample period": "20 ms"),
    series ({"cpu", "heap", "gc", "pause", "threads", "safepoints",
    "cpuLost"} each {"event_type", "columns": {"t": ms from the origin,
    then the fields: [values, None where absent]}, "text": [per point]}),
    lost (what could not be read: dicts of input, message, chunk, offset,
    rest_of_chunk). What cannot be opened at all raises as jfr.open does.
    bucket_nanos: the allocation rate's bucket width (not returned yet)."""
    recs, mine = [], []
    try:
        for src in _as_list(sources):
            rec = src if isinstance(src, Recording) else Recording(src)
            if rec is not src:
                mine.append(rec)
            recs.append(rec)
        handles = _ffi.new("jfr_recording *[]", [r._handle() for r in recs] or [_ffi.NULL])
        for r in recs:
            _lib.jfr_recording_rewind(r._rec)
        o = _ffi.new("jfr_report_data_options *")
        _lib.jfr_report_data_options_init(o, _native.REPORT_DATA_OPTIONS_VERSION)
        o.bucket_nanos = bucket_nanos
        out = _ffi.new("jfr_report_data **")
        err = _ffi.new("jfr_error *")
        if _lib.jfr_report_data_build(out, handles, len(recs), o, err) < 0:
            raise _error(err, "report_data")
        d = _ffi.gc(out[0], _lib.jfr_report_data_free)
        s = _lib.jfr_report_data_summary(d)
        return {
            "summary": {"origin_nanos": s.origin_nanos, "end_nanos": s.end_nanos,
                        "chunks": s.chunks, "bytes": s.bytes, "inputs_read": s.inputs_read},
            "overview": _report_rows(_lib.jfr_report_data_overview, d),
            "settings": _report_rows(_lib.jfr_report_data_settings, d),
            "series": _report_series(d),
            "lost": _report_lost(d)}
    finally:
        for rec in mine:
            rec.close()


# ---- findings ----------------------------------------------------------------------


def findings(sources, rules=None, rules_file=None):
    """The findings of `jfrtool report`'s rules over the recordings, read as
    one, as `jfrtool rules --json` gives them (doc/report.md, "Rules"): the
    built-in rules, then those of `rules` (the text of a rules file, or a
    list of texts) and of `rules_file` (a path, or a list of paths).

    Rows of dicts, in the rules' order: id (unique among the findings:
    "leak-1"), rule (the rule's id), severity ("warning" or "info"),
    title, evidence, value and threshold (the rule's first comparison),
    at_nanos (ns since the epoch, or None), subject, link (the report
    page's anchors), source ("built-in" or "FILE:LINE").

    The rules are rows of the jfrsql SQLite extension's table jfr_rules,
    run by the extension (jfr_check(), the same code as jfrtool's), which
    is loaded into Python's sqlite3 module: it must be able to load
    extensions (RuntimeError otherwise). A rule that is wrong raises
    RuleError naming its file, line and id; input that cannot be read at
    all raises Error."""
    import sqlite3 as _sqlite3
    from . import _sql

    paths = _sql_sources(sources)
    texts = []
    for text in ([] if rules is None else [rules] if isinstance(rules, str) else rules):
        texts.append((text, "(rules)"))
    files = [] if rules_file is None else [rules_file] if isinstance(rules_file, (str, bytes)) \
        or hasattr(rules_file, "__fspath__") else list(rules_file)
    for path in files:
        with _builtins.open(path, encoding="utf-8") as f:
            texts.append((f.read(), _os.fsdecode(path)))
    try:
        found = _sql.findings(paths, texts)
    except _sqlite3.Error as e:
        message = str(e)
        if "rule \"" in message or message.startswith(("(rules)", "jfr_load_rules")):
            raise RuleError(message) from None
        raise _sql_error(e) from None
    return Rows(found)


# ---- views and SQL -------------------------------------------------------------


class ViewRows(Rows):
    """The rows of a view (dicts keyed by the column labels), with the view's
    name, title, form (label-value lines, not a table) and columns (dicts:
    label, format, unit); units maps each label to its unit or None.
    to_pandas() keeps the units in the DataFrame's attrs["units"]."""

    def __init__(self, rows, name, title, form, columns):
        super().__init__(rows)
        self.name, self.title, self.form, self.columns = name, title, form, columns
        self.units = {c["label"]: c["unit"] for c in columns}

    def to_pandas(self):
        import pandas  # optional: only this method needs it

        frame = pandas.DataFrame(list(self), columns=[c["label"] for c in self.columns])
        frame.attrs["units"] = dict(self.units)
        return frame


def _sql_sources(sources):
    """Paths (or bytes) for the extension; what cannot be opened raises as
    jfr.open does."""
    paths = []
    for src in _as_list(sources):
        if not isinstance(src, Recording):
            Recording(src).close()
            paths.append(src)
        else:
            paths.append(src._path if src._path is not None else src._data)
    return paths


def _sql_error(e):
    return Error(-3, str(e).replace("jfr_attach: ", "", 1), "(recordings)")


def view(sources, name):
    """View `name` of `jfrtool view` ("gc-pauses"; jfrtool view --help lists
    them), or the view of an event type ("jdk.GCPhasePause" or
    "GCPhasePause", every field a column, as `jfrtool view TYPE` shows it),
    over the recordings, read as one: ViewRows, one dict per row keyed
    by the column labels, the values of `jfrtool view --json` (numbers in
    the column's unit: ns, bytes, epoch-ns, percent...; booleans as 0/1).

    The views are the SQL views "view:NAME" of the jfrsql extension, loaded
    into Python's sqlite3 module (doc/python.md, "Views and SQL"); an event
    type's view is the extension's jfr_type_view(). A name that is neither
    a view nor an event type of the recordings raises KeyError; the seven
    views jfrtool computes in its own code only (events-by-count,
    cpu-time-statistics, ...) raise ValueError; a view over an event type the recording lacks raises Error
    ("no such table")."""
    import sqlite3 as _sqlite3
    from . import _sql

    try:
        info, cols, rows = _sql.view(_sql_sources(sources), name)
    except _sqlite3.Error as e:
        raise _sql_error(e) from None
    labels = [c["label"] for c in cols]
    return ViewRows([dict(zip(labels, r)) for r in rows], info["name"], info["title"],
                    bool(info["form"]),
                    [{"label": c["label"], "format": c["format"], "unit": c["unit"]}
                     for c in cols])


def view_text(sources, name):
    """View `name` (or an event type's view, as for jfr.view) over the
    recordings, read as one, with every cell the text `jfrtool view`
    prints ("14.5 ms", "4.9 MB", "N/A"): a dict with "view", "title",
    "form", "state" (the JDK's: "rows", "missing-type", "no-events",
    "missing-field") and "missing" (the type or field), "columns" (dicts of
    "label", "key", "unit", "right": right-aligned) and "rows" (lists of
    texts, the view's row limit applied). It is sql/'s jfrsql_view_table
    through the extension's jfr_view_text() (doc/sql.md, "A view's table,
    as one call"). A name that is neither a view nor an event type raises
    KeyError; a view only jfrtool's own code computes, ValueError."""
    import sqlite3 as _sqlite3
    from . import _sql

    try:
        return _sql.view_text(_sql_sources(sources), name)
    except _sqlite3.Error as e:
        raise _sql_error(e) from None


def sql(sources, query, params=()):
    """The rows of `query` (one SQL statement, with `params` for its ?
    placeholders) over the recordings, read as one, as Rows of dicts keyed
    by the result's column names: the tables, views and functions of
    `jfrtool sql` (doc/sql.md), through the jfrsql extension in Python's
    sqlite3 module. An SQL error raises Error with SQLite's message."""
    import sqlite3 as _sqlite3
    from . import _sql

    try:
        names, rows = _sql.query(_sql_sources(sources), query, params)
    except _sqlite3.Error as e:
        raise _sql_error(e) from None
    return Rows(dict(zip(names, r)) for r in rows)


from .writing import scrub, Scrubbed, Writer  # noqa: E402 (uses the names above)
from .follow import Flush, Follow, follow  # noqa: E402  (uses the classes above)
