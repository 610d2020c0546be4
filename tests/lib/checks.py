"""Shared by the Python test scripts: counting checks and comparing values.

A script makes a Checks, calls check(ok, what) (or that(what, ok), in the
order the assertion reads best, or fail(what)) for each assertion, and exits with
status(): every failure is printed as "FAIL: what (detail)" when it
happens and kept in `failures`; with verbose=True every success is
printed as "ok: what" too. same_value says whether two cells of a view
(jfrtool's JSON, SQL's or Python's) are the same value.

The scripts find this module as ../lib from their own folder:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "..", "lib"))
"""

import math


class Checks:
    """The checks of one script: how many ran, which failed."""

    def __init__(self, verbose=False):
        self.count = 0
        self.failures = []
        self.verbose = verbose

    def check(self, ok, what, detail=""):
        """Count one check; print and keep `what` unless `ok`. Returns ok."""
        self.count += 1
        text = "%s%s" % (what, " (%s)" % (detail,) if detail else "")
        if not ok:
            print("FAIL: " + text)
            self.failures.append(what)
        elif self.verbose:
            print("ok: " + text)
        return ok

    def fail(self, what, detail=""):
        """A check that failed: print and keep `what`."""
        self.check(False, what, detail)

    def that(self, what, ok, detail=""):
        """check() with the description first."""
        return self.check(ok, what, detail)

    def status(self):
        """The exit status after the checks: 1 if any failed, else 0."""
        return 1 if self.failures else 0


def same_value(a, b, fmt, abs_tol=0.0):
    """Whether view cells `a` (jfrtool view's JSON) and `b` (SQL's, or
    Python's) are the same value of column format `fmt`: booleans by truth,
    an @Unsigned value above 2^63 that one side reads signed and the other
    unsigned, floats to 12 digits (and `abs_tol`), others equal."""
    if fmt == "bool" and a is not None and b is not None:
        return bool(a) == bool(b)
    # an @Unsigned value above 2^63: SQL reads it unsigned (REAL), jfrtool
    # view as the JDK does, signed (doc/sql.md, "Views")
    if isinstance(b, float) and isinstance(a, int) and a < 0 and b >= 2.0**63:
        return math.isclose(b, a + 2**64, rel_tol=1e-15)
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return False
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=abs_tol)
    return a == b
