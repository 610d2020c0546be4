"""Writing recordings: jfr.scrub (jfrtool scrub) and jfr.Writer (a
recording built type by type and event by event), over libjfr's writer
(include/jfr/writer.h). The rules (what is kept, redaction, encodings,
checks of every value against its type) are the library's.
"""

import os as _os

from ._native import ffi as _ffi, lib as _lib
from . import _native

__all__ = ["scrub", "Scrubbed", "Writer"]

_PRIMITIVES = {"boolean": "int", "byte": "int", "char": "int", "short": "int", "int": "int",
               "long": "int", "float": "float", "double": "float",
               "java.lang.String": "string"}


def _jfr():
    import jfr  # the package, imported when first needed (no cycle at import)
    return jfr


def _fail(jfr, code, message, file=None):
    cls = {-1: jfr.InvalidError, -3: jfr.Error, -4: jfr.FormatError,
           -6: jfr.CorruptError, -7: jfr.TruncatedError, -8: jfr.LimitError,
           -9: jfr.NotFoundError}.get(code, jfr.Error)
    if code == -2:
        raise MemoryError(message)
    raise cls(code, message, file=file)


# ---- scrub ---------------------------------------------------------------------------


class Scrubbed:
    """What jfr.scrub did: `redacted` ({"TYPE.FIELD": values redacted}),
    `chunks` (written), `events` (written), `filtered` (left out by the
    filters), `left_out` (damaged records left out, as jfr.Error objects
    naming chunk and offset), `data` (the output's bytes when no output
    path was given, else None)."""

    def __init__(self):
        self.redacted = {}
        self.chunks = self.events = self.filtered = 0
        self.left_out = []
        self.data = None

    def __repr__(self):
        return "<jfr.Scrubbed %d chunks, %d events, %d redacted>" % (
            self.chunks, self.events, sum(self.redacted.values()))


def _filters(s, jfr, options):
    kinds = [("include_events", 0), ("exclude_events", 1), ("include_categories", 2),
             ("exclude_categories", 3), ("include_threads", 4), ("exclude_threads", 5)]
    for name, kind in kinds:
        text = options.get(name)
        if text is None:
            continue
        if not isinstance(text, str):
            text = ",".join(text)
        if _lib.jfr_scrub_add_filter(s, kind, text.encode()) < 0:
            raise jfr.InvalidError(-1, "%s: %s" % (name, _ffi.string(
                _lib.jfr_scrub_error(s)).decode()))


def _redactions(s, jfr, redact, fields):
    if redact and _lib.jfr_scrub_redact_defaults(s, _ffi.NULL) < 0:
        raise jfr.InvalidError(-1, _ffi.string(_lib.jfr_scrub_error(s)).decode())
    for spec in fields:
        if isinstance(spec, str):  # "TYPE.FIELD[=REGEX]", as jfrtool takes it
            head, eq, regex = spec.partition("=")
            type_, dot, field = head.rpartition(".")
            if not dot or not type_ or not field:
                raise jfr.InvalidError(-1, "a redaction needs TYPE.FIELD, not %r" % spec)
            regex = regex if eq else None
        else:
            type_, field, regex = (tuple(spec) + (None,))[:3]
        if _lib.jfr_scrub_redact_field(s, type_.encode(), field.encode(),
                                       regex.encode() if regex is not None else
                                       _ffi.NULL) < 0:
            raise jfr.InvalidError(-1, "%s: %s" % (spec, _ffi.string(
                _lib.jfr_scrub_error(s)).decode()))


def _check_names(s, jfr, rec):
    tset = _ffi.new("jfr_type_set **")
    if _lib.jfr_type_set_new(tset, _ffi.NULL) < 0:
        raise MemoryError()
    try:
        _lib.jfr_type_set_add_recording(tset[0], rec._handle())
        err = _ffi.new("jfr_error *")
        if _lib.jfr_type_set_count(tset[0]) and \
                _lib.jfr_scrub_check(s, tset[0], err) == -9:
            raise jfr.UnknownEventTypeError(_ffi.string(err.message).decode(), None,
                                            file=rec.name)
    finally:
        _lib.jfr_type_set_free(tset[0])


def scrub(source, output=None, *, include_events=None, exclude_events=None,
          include_categories=None, exclude_categories=None, include_threads=None,
          exclude_threads=None, start=None, end=None, redact=False, redact_fields=(),
          strict=False):
    """jfrtool scrub from Python: write the events of `source` (a path, bytes
    or an open jfr.Recording) that the filters keep to `output` (a path; None:
    the bytes are returned in the result's `data`), with the constant-pool
    entries they need and nothing else. Filters as the JDK's `jfr scrub` and
    jfrtool take them (a comma-separated str or a list of names, short names,
    globs; categories; thread names): an event is kept when every filter
    keeps it, and a name that no event type of the input has raises
    UnknownEventTypeError. start/end: as jfr.profile's (epoch ns, datetime,
    ISO-8601, or an offset from the start such as "10s"). redact: the
    defaults of jfrtool scrub --redact; redact_fields: "TYPE.FIELD[=REGEX]"
    strings or (type, field[, regex]) tuples. Damaged records are left out
    (result.left_out; with strict the first raises). Returns a Scrubbed."""
    jfr = _jfr()
    rec = source if isinstance(source, jfr.Recording) else jfr.open(source, strict=strict)
    s = _ffi.new("jfr_scrub **")
    if _lib.jfr_scrub_new(s, _ffi.NULL) < 0:
        raise MemoryError()
    s = _ffi.gc(s[0], _lib.jfr_scrub_free)
    opts = dict(include_events=include_events, exclude_events=exclude_events,
                include_categories=include_categories, exclude_categories=exclude_categories,
                include_threads=include_threads, exclude_threads=exclude_threads)
    _filters(s, jfr, opts)
    _redactions(s, jfr, redact, redact_fields)
    _check_names(s, jfr, rec)
    if start is not None or end is not None:
        origin = rec.start_nanos or 0
        if _lib.jfr_scrub_set_time_range(s, jfr._time(start, origin),
                                         jfr._time(end, origin)) < 0:
            raise jfr.InvalidError(-1, _ffi.string(_lib.jfr_scrub_error(s)).decode())
    w = _open_writer(jfr, output)
    result = Scrubbed()
    stats = _ffi.new("jfr_write_stats *")
    try:
        for chunk in rec.chunks():
            rc = _lib.jfr_writer_add_chunk(stats, w, chunk._c, s)
            if rc == -6:  # the chunk's metadata is gone: the recording's error
                rec._damaged(_lib.jfr_recording_error(rec._rec))
                continue
            if rc < 0:
                e = _lib.jfr_writer_error(w)
                _fail(jfr, e.code, _ffi.string(e.message).decode(), output)
            for i in range(min(_lib.jfr_writer_note_count(w), _native.WRITER_MAX_NOTES)):
                e = jfr._error(_lib.jfr_writer_note_at(w, i), rec.name)
                result.left_out.append(e)
                if strict:
                    raise e
        _close_writer(jfr, w, output)
        if output is None:
            result.data = _memory(w)
    finally:
        _lib.jfr_writer_free(w)
        if rec is not source:
            rec.close()
    result.chunks, result.events = stats.chunks_written, stats.events_written
    result.filtered = stats.events_filtered
    field = _ffi.new("const char **")
    count = _ffi.new("uint64_t *")
    for i in range(_lib.jfr_scrub_redaction_count(s)):
        _lib.jfr_scrub_redaction_at(field, count, s, i)
        if count[0]:
            result.redacted[_ffi.string(field[0]).decode()] = count[0]
    return result


def _open_writer(jfr, output):
    out = _ffi.new("jfr_writer **")
    err = _ffi.new("jfr_error *")
    if output is None:
        rc = _lib.jfr_writer_open_memory(out, _ffi.NULL, err)
    else:
        path = _os.fsencode(output)
        rc = _lib.jfr_writer_open_file(out, path, _ffi.NULL, err)
    if rc < 0:
        raise jfr._error(err, _os.fsdecode(output) if output is not None else "(memory)")
    return out[0]


def _close_writer(jfr, w, output):
    if _lib.jfr_writer_close(w) < 0:
        e = _lib.jfr_writer_error(w)
        _fail(jfr, e.code, _ffi.string(e.message).decode(), output)


def _memory(w):
    data = _ffi.new("const void **")
    size = _ffi.new("size_t *")
    _lib.jfr_writer_memory(data, size, w)
    return bytes(_ffi.buffer(data[0], size[0]))


class _ChunkBlock:
    def __init__(self, w):
        self._w = w

    def __enter__(self):
        return self._w

    def __exit__(self, kind, *rest):
        if kind is None:
            self._w.end_chunk()


# ---- building recordings --------------------------------------------------------------


class Writer:
    """A recording built by hand: declare types, then write chunks of
    events and constant-pool entries (each value is checked against its
    declared type by the library, so what is written reads back).

        w = jfr.Writer("hello.jfr")            # or jfr.Writer(): bytes in w.getvalue()
        w.declare("my.Hello", "jdk.jfr.Event",
                  [("startTime", "long", {"jdk.jfr.Timestamp": "TICKS"}),
                   ("message", "java.lang.String")], label="Hello")
        with w.chunk(start_nanos=1_700_000_000 * 10**9):
            w.event("my.Hello", {"startTime": 5, "message": "hi"})
        w.close()

    A field is (name, type[, options]): type a declared type's name or a
    primitive (boolean, byte, char, short, int, long, float, double,
    java.lang.String); options a set or string of "array", "pooled", or a
    dict of annotations ({"jdk.jfr.Label": "Start Time"}), the annotation
    types declared on first use. Values: int, float, str or None, a dict
    for an inline struct, a list for an array, an int key for a pooled
    field (whose entry is given with entry())."""

    def __init__(self, path=None):
        self._jfr = _jfr()
        self._path = path
        self._w = _open_writer(self._jfr, path)
        self._types = {}  # name -> (id, [(field, type name, flags)], simple)
        self._closed = False
        self._data = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_w", None) is not None:
            _lib.jfr_writer_free(self._w)
            self._w = None

    def _check(self, rc):
        if rc < 0:
            e = _lib.jfr_writer_error(self._w)
            _fail(self._jfr, e.code, _ffi.string(e.message).decode(),
                  self._path or "(memory)")

    def _id(self, name):
        if name in self._types:
            return self._types[name][0]
        out = _ffi.new("uint64_t *")
        if _lib.jfr_writer_type_id(out, self._w, name.encode()) < 0:
            raise self._jfr.InvalidError(-1, "type %s is not declared" % name)
        return out[0]

    def _annotation_id(self, name, array):
        # declared on first use with its one element, as the JDK declares
        # jdk.jfr.Label (String value) or jdk.jfr.Category (String[] value):
        # the JDK's reader needs the element to read the annotation
        try:
            return self._id(name)
        except self._jfr.InvalidError:
            return self.declare(name, "java.lang.annotation.Annotation",
                                [("value", "java.lang.String", "array" if array else ())])

    def annotate(self, type_name, annotations, field=None):
        """Annotate a type (or its field): {annotation type: value}; a
        list value is an array ("value-0", "value-1", ...)."""
        for ann, value in annotations.items():
            aid = self._annotation_id(ann, isinstance(value, (list, tuple)))
            if isinstance(value, (list, tuple)):
                names = ["value-%d" % i for i in range(len(value))]
                values = [str(v) for v in value]
            elif value is None:
                names, values = [], []
            else:
                names, values = ["value"], [str(value)]
            keep = [_ffi.new("char[]", x.encode()) for x in names + values]
            self._check(_lib.jfr_writer_annotate(
                self._w, self._id(type_name), field.encode() if field else _ffi.NULL, aid,
                _ffi.new("const char *[]", keep[:len(names)]),
                _ffi.new("const char *[]", keep[len(names):]), len(names)))

    def declare(self, name, super_type=None, fields=(), simple=False, label=None,
                category=None, annotations=None):
        """Declare type `name` (super_type "jdk.jfr.Event" for an event
        type) with its fields; returns its id."""
        out = _ffi.new("uint64_t *")
        self._check(_lib.jfr_writer_declare_type(out, self._w, name.encode(), super_type.encode() if super_type else _ffi.NULL, _native.TYPE_SIMPLE if simple else 0))
        self._types[name] = (out[0], [], simple)
        for spec in fields:
            fname, ftype = spec[0], spec[1]
            opts = spec[2] if len(spec) > 2 else ()
            anns = opts if isinstance(opts, dict) else {}
            flags_of = (opts,) if isinstance(opts, str) else () if isinstance(opts, dict) \
                else opts
            flags = (_native.FIELD_ARRAY if "array" in flags_of else 0) | \
                (_native.FIELD_POOLED if "pooled" in flags_of else 0)
            self._check(_lib.jfr_writer_declare_field(self._w, out[0], fname.encode(),
                                                      self._id(ftype), flags))
            self._types[name][1].append((fname, ftype, flags))
            if anns:
                self.annotate(name, anns, field=fname)
        anns = dict(annotations or {})
        if label is not None:
            anns["jdk.jfr.Label"] = label
        if category is not None:
            anns["jdk.jfr.Category"] = list(category) if not isinstance(category, str) \
                else [category]
        if anns:
            self.annotate(name, anns)
        return out[0]

    def chunk(self, start_nanos=0, start_ticks=0, ticks_per_second=10**9, gmt_offset_ms=0,
              duration_nanos=0):
        """Begin a chunk; use as a context manager (the chunk ends with the
        block), or call end_chunk(). Event times are ticks: start_ticks at
        start_nanos, ticks_per_second after."""
        spec = _ffi.new("jfr_chunk_spec *", {
            "version": _native.CHUNK_SPEC_VERSION, "start_nanos": start_nanos,
            "start_ticks": start_ticks, "ticks_per_second": ticks_per_second,
            "gmt_offset_ms": gmt_offset_ms})
        self._check(_lib.jfr_writer_begin_chunk(self._w, spec))
        self._duration = duration_nanos
        return _ChunkBlock(self)

    def end_chunk(self, duration_nanos=None):
        d = self._duration if duration_nanos is None else duration_nanos
        self._check(_lib.jfr_writer_end_chunk(self._w, d))

    def _put(self, ftype, flags, value, where):
        if flags & _native.FIELD_ARRAY:
            value = list(value)
            self._check(_lib.jfr_writer_put_count(self._w, len(value)))
            for i, v in enumerate(value):
                self._put(ftype, flags & ~_native.FIELD_ARRAY, v, "%s[%d]" % (where, i))
        elif flags & _native.FIELD_POOLED:
            self._check(_lib.jfr_writer_put_key(self._w, int(value)))
        elif _PRIMITIVES.get(ftype) == "int":
            self._check(_lib.jfr_writer_put_int(self._w, int(value)))
        elif _PRIMITIVES.get(ftype) == "float":
            self._check(_lib.jfr_writer_put_float(self._w, float(value)))
        elif _PRIMITIVES.get(ftype) == "string":
            data = value.encode() if value is not None else None
            self._check(_lib.jfr_writer_put_string(
                self._w, data if data is not None else _ffi.NULL, len(data or b"")))
        else:
            self._put_fields(ftype, value, where)

    def _put_fields(self, type_name, values, where):
        fields = self._types[type_name][1]
        if self._types[type_name][2] and not isinstance(values, dict):
            values = {fields[0][0]: values}  # a simple type: its one field
        values = values or {}
        unknown = set(values) - {f[0] for f in fields}
        if unknown:
            raise self._jfr.InvalidError(-1, "%s has no field %s" % (type_name,
                                                                   sorted(unknown)[0]))
        for fname, ftype, flags in fields:
            v = values.get(fname)
            if v is None and (flags or _PRIMITIVES.get(ftype) not in (None, "string")):
                v = [] if flags & _native.FIELD_ARRAY else 0
            self._put(ftype, flags, v, where + "." + fname)

    def event(self, type_name, values):
        """An event of a declared event type: {field: value}; fields left
        out are 0, null or empty."""
        self._check(_lib.jfr_writer_begin_event(self._w, self._id(type_name)))
        self._give(type_name, values)

    def entry(self, type_name, key, values):
        """Constant-pool entry `key` of a declared type (the first value
        given for a key is kept)."""
        self._check(_lib.jfr_writer_begin_entry(self._w, self._id(type_name), key))
        self._give(type_name, values)

    def _give(self, type_name, values):
        # a value that fails half way is not written at all
        try:
            self._put_fields(type_name, values, type_name)
            self._check(_lib.jfr_writer_end(self._w))
        except BaseException:
            _lib.jfr_writer_cancel(self._w)
            raise

    def close(self):
        """Finish the chunk being built and the output."""
        if self._closed:
            return
        self._closed = True
        try:
            _close_writer(self._jfr, self._w, self._path)
            if self._path is None:
                self._data = _memory(self._w)
        finally:
            _lib.jfr_writer_free(self._w)
            self._w = None

    def getvalue(self):
        """The recording's bytes (a Writer made without a path, once closed)."""
        if self._path is not None:
            raise ValueError("this Writer writes to %s" % self._path)
        if not self._closed:
            raise ValueError("close the Writer first")
        return self._data
