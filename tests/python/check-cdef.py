#!/usr/bin/env python3
"""Python's cffi declarations (python/jfr/_native.py, CDEF) against the
public headers (issue 27): every struct, enum, typedef, function and
#define that CDEF declares must be what include/jfr.h declares, field for
field and parameter for parameter, since cffi's ABI mode trusts CDEF for
every size, offset and call. A header change that Python would miss fails
here. Then the proof: a copy of the headers with one struct changed (a
field appended to jfr_error, a parameter type changed) must fail the same
comparison.

Needs a C preprocessor (JFR_CPP_CC, set by make check to $(CC); else CC,
else cc) and pycparser (cffi's own parser)."""

import ast
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jfrtest  # noqa: E402

try:
    import pycparser
    from pycparser import c_ast, c_generator
except ImportError:
    jfrtest.skip("no pycparser")

SRC = os.environ.get("JFR_TOP_SRCDIR") or os.path.join(os.path.dirname(__file__), "..", "..")
BUILD = os.environ.get("JFR_TOP_BUILDDIR") or SRC
CC = (os.environ.get("JFR_CPP_CC") or os.environ.get("CC") or "cc").split()
# Only typedef names matter: types are compared as they are spelt.
STUBS = {
    "stdbool.h": "typedef _Bool bool;\n#define true 1\n#define false 0\n",
    "stddef.h": "typedef unsigned long size_t;\n#define NULL ((void *)0)\n",
    "stdint.h": "".join("typedef int %s;\n" % t for t in (
        "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
        "uint64_t", "uintptr_t", "intptr_t")) + "#define INT64_MIN (-9223372036854775807L-1)\n",
}


def native_module():
    path = os.path.join(SRC, "python", "jfr", "_native.py")
    return ast.parse(open(path).read(), path)


def cdef_text():
    for node in native_module().body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "CDEF":
            return node.value.value
    jfrtest.fail("no CDEF in python/jfr/_native.py")


def python_constants():
    """_native.py's integer constants (PROFILE_LINES = 0x1): copies of the
    headers' JFR_* macros and enum values."""
    out = []
    for node in native_module().body:
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and
                type(node.value.value) is int):
            out.append((node.targets[0].id, node.value.value))
    return out


def preprocess(include_dirs, stubs):
    """include/jfr.h preprocessed, attributes gone; and its macros (-dM)."""
    args = CC + ["-E", "-nostdinc", "-I", stubs] + sum((["-I", d] for d in include_dirs), [])
    src = '#include "jfr.h"\n'
    code = subprocess.run(args + ["-P", "-"], input=src, capture_output=True, text=True)
    macros = subprocess.run(args + ["-dM", "-"], input=src, capture_output=True, text=True)
    if code.returncode or macros.returncode:
        jfrtest.fail("preprocessing the headers failed:\n" + code.stderr + macros.stderr)
    text = re.sub(r"__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)", "", code.stdout)
    return text, dict(re.findall(r"^#define (\w+) (.+)$", macros.stdout, re.M))


def int_value(expr):
    """A constant as the macros and enums write them: 1u, (1u << 3), -1."""
    limits = {"UINT32_MAX": "0xFFFFFFFF", "UINT64_MAX": "0xFFFFFFFFFFFFFFFF"}
    expr = re.sub(r"\b(UINT32_MAX|UINT64_MAX)\b", lambda m: limits[m.group(1)], expr.strip())
    expr = re.sub(r"(?<=[0-9a-fA-F])[uUlL]+\b", "", expr)
    if not re.fullmatch(r"[-+~()<>|&^ 0-9a-fA-Fx]+", expr):
        return expr
    return eval(expr, {"__builtins__": {}})  # digits and operators only


GEN = c_generator.CGenerator()


def type_text(node):
    """A declaration's type, without names."""
    node = _strip_names(node)
    return re.sub(r"\s+", " ", GEN.visit(node)).strip()


def _strip_names(node):
    import copy

    node = copy.deepcopy(node)
    for _, child in node.children():
        _unname(child)
    if isinstance(node, c_ast.TypeDecl):
        node.declname = None
    return node


def _unname(node):
    if isinstance(node, c_ast.TypeDecl):
        node.declname = None
    if isinstance(node, c_ast.Decl) and isinstance(node.type, (c_ast.TypeDecl, c_ast.PtrDecl,
                                                                c_ast.ArrayDecl, c_ast.FuncDecl)):
        node.name = None
    for _, child in node.children():
        _unname(child)


def struct_fields(s):
    return [(d.name, type_text(d.type)) for d in (s.decls or [])]


def enum_values(e):
    out, nxt = [], 0
    for v in e.values.enumerators:
        val = int_value(GEN.visit(v.value)) if v.value is not None else nxt
        out.append((v.name, val))
        nxt = val + 1 if isinstance(val, int) else None
    return out


def declarations(text):
    """{('struct'|'enum'|'typedef'|'func', name): comparable form}."""
    ast_ = pycparser.CParser().parse(text, "<decls>")
    out = {}

    def record(node):
        if isinstance(node, c_ast.Struct) and node.decls is not None:
            out[("struct", node.name)] = struct_fields(node)
        elif isinstance(node, c_ast.Enum) and node.values is not None:
            out[("enum", node.name)] = enum_values(node)

    for ext in ast_.ext:
        t = ext.type
        inner = t.type if isinstance(t, c_ast.TypeDecl) else None
        if isinstance(ext, c_ast.Typedef):
            if isinstance(inner, (c_ast.Struct, c_ast.Enum)):
                record(inner)
                out[("typedef", ext.name)] = "%s %s" % (type(inner).__name__.lower(), inner.name)
            else:
                out[("typedef", ext.name)] = type_text(t)
        elif isinstance(t, c_ast.FuncDecl):
            out[("func", ext.name)] = type_text(t)
        elif isinstance(ext, c_ast.Decl) and isinstance(t, (c_ast.Struct, c_ast.Enum)):
            record(t)
    return out


def compare(include_dirs):
    """The differences between CDEF and the headers, as lines."""
    stubs = tempfile.mkdtemp(prefix="jfr-cdef-stubs-")
    try:
        for name, body in STUBS.items():
            with open(os.path.join(stubs, name), "w") as f:
                f.write(body)
        header_text, macros = preprocess(include_dirs, stubs)
    finally:
        shutil.rmtree(stubs)
    cdef = cdef_text()
    defines = re.findall(r"^\s*#define (\w+) (.+)$", cdef, re.M)
    cdef_code = re.sub(r"^\s*#define .*$", "", cdef, flags=re.M)
    prelude = "".join(STUBS[h] for h in ("stdbool.h", "stddef.h", "stdint.h"))
    prelude = re.sub(r"^#define .*$", "", prelude, flags=re.M)
    python = declarations(prelude + cdef_code)
    headers = declarations(header_text)
    diffs = []
    for key, form in sorted(python.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        if key[1] in ("bool", "size_t") or key[1] in STUBS["stdint.h"]:
            continue
        if key not in headers:
            diffs.append("%s %s: in Python, not in the headers" % key)
        elif headers[key] != form:
            diffs.append("%s %s differs:\n    headers: %s\n    Python:  %s"
                         % (key[0], key[1], headers[key], form))
    for name, value in defines:
        if name not in macros:
            diffs.append("#define %s: in Python, not in the headers" % name)
        elif int_value(macros[name]) != int_value(value):
            diffs.append("#define %s: headers %s, Python %s" % (name, macros[name], value))
    enums = dict(v for key, form in headers.items() if key[0] == "enum" for v in form)
    constants = python_constants()
    for name, value in constants:
        full = "JFR_" + name
        known = int_value(macros[full]) if full in macros else enums.get(full)
        if known is None:
            diffs.append("%s = %d: no %s in the headers" % (name, value, full))
        elif known != value:
            diffs.append("%s = %d: the headers' %s is %s" % (name, value, full, known))
    return diffs, len(python) + len(defines) + len(constants)


def main():
    includes = [os.path.join(SRC, "include"), os.path.join(BUILD, "include")]
    diffs, n = compare(includes)
    if diffs:
        jfrtest.fail("python/jfr/_native.py does not match include/ (%d):\n%s"
                     % (len(diffs), "\n".join(diffs)))
    # the proof: headers changed where Python would miss it
    tmp = tempfile.mkdtemp(prefix="jfr-cdef-")
    try:
        copy = os.path.join(tmp, "include")
        shutil.copytree(os.path.join(SRC, "include"), copy)
        err_h = os.path.join(copy, "jfr", "error.h")
        text = open(err_h).read()
        changed = text.replace("    int sys_errno;\n", "    int sys_errno;\n    int grown;\n", 1)
        if changed == text:
            jfrtest.fail("cannot find jfr_error.sys_errno to change in the copy")
        with open(err_h, "w") as f:
            f.write(changed)
        bad, _ = compare([copy, os.path.join(BUILD, "include")])
        if not any("struct jfr_error" in d for d in bad):
            jfrtest.fail("a field added to jfr_error in a copy of the headers went unnoticed")
        with open(err_h, "w") as f:
            f.write(text.replace("JFR_API const char *jfr_strerror(int code);",
                                 "JFR_API const char *jfr_strerror(long code);"))
        bad, _ = compare([copy, os.path.join(BUILD, "include")])
        if not any("func jfr_strerror" in d for d in bad):
            jfrtest.fail("a parameter type changed in a copy of the headers went unnoticed")
    finally:
        shutil.rmtree(tmp)
    print("PASS: %d declarations of python/jfr/_native.py match include/; a changed "
          "header is caught" % n)


main()
