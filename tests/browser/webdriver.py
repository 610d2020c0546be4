"""The browser tests' one harness: headless Chromium driven through
ChromeDriver's WebDriver HTTP protocol (standard library only), TAP-like
checks, and a session that is always torn down.

    chromium, driver = require_browser()      # exits 77 when either is missing
    t = Tap()
    with BrowserSession(chromium, driver, timeout=120) as wd:
        wd.call("POST", "/url", {"url": "file:///..."})
        t.check(wd.wait_for("return document.body.dataset.ready === '1';"), "ready")
    t.finish()

A session that cannot start (ChromeDriver not listening, the browser slow to
come up on a loaded machine) is tried once more before it counts as a failure;
a check that fails is never retried. Waits poll until their condition holds,
so their limits are generous: they only bound how long a failure takes.
"""
import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=1280,900", "--force-device-scale-factor=1"]
WAIT = 20             # seconds a condition may take to hold
SESSION_ATTEMPTS = 2


class Timeout(Exception):
    pass


def find_binary(name, fallback):
    if os.access(fallback, os.X_OK):
        return fallback
    return shutil.which(name)


def require_browser():
    """(chromium, chromedriver) paths; exit 77 (skip) when either is missing."""
    chromium = find_binary("chromium", "/usr/bin/chromium")
    driver = find_binary("chromedriver", "/usr/bin/chromedriver")
    if not chromium or not driver:
        print("SKIP: chromium/chromedriver not installed")
        sys.exit(77)
    return chromium, driver


class WebDriver:
    """A minimal WebDriver client; the browser's console log is kept."""

    def __init__(self, port):
        self.base = "http://127.0.0.1:%d" % port
        self.sid = None

    def call(self, method, path, body=None, timeout=30):
        url = self.base + (("/session/" + self.sid) if self.sid and not path.startswith("/session") else "") + path
        data = json.dumps(body if body is not None else {}).encode() if method == "POST" else None
        req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return json.loads(r.read().decode() or "{}").get("value")
        except urllib.error.HTTPError as e:
            raise RuntimeError("WebDriver %s %s: %s" % (method, path, e.read().decode(errors="replace")[:500]))

    def wait_listening(self, seconds=20):
        deadline = time.time() + seconds
        while True:
            try:
                self.call("GET", "/status", timeout=2)
                return
            except Exception:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)

    def start(self, chromium, profile):
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:loggingPrefs": {"browser": "ALL"},
                                                 "goog:chromeOptions": {
                                                     "binary": chromium,
                                                     "args": CHROME_FLAGS + ["--user-data-dir=" + profile]}}}}
        self.sid = self.call("POST", "/session", caps, timeout=60)["sessionId"]

    def quit(self):
        if self.sid:
            try:
                self.call("DELETE", "", timeout=5)
            except Exception:
                pass
            self.sid = None

    def console_errors(self):
        """SEVERE console entries since the last call (empty when the log is unavailable)."""
        try:
            entries = self.call("POST", "/se/log", {"type": "browser"}) or []
        except RuntimeError:
            return []
        return [e.get("message", "") for e in entries if e.get("level") == "SEVERE"]

    def js(self, script, *args):
        return self.call("POST", "/execute/sync", {"script": script, "args": list(args)})

    def element(self, css):
        v = self.call("POST", "/element", {"using": "css selector", "value": css})
        return next(iter(v.values()))

    def actions(self, *sources):
        self.call("POST", "/actions", {"actions": list(sources)})
        self.call("DELETE", "/actions")

    def mouse(self, x, y, click=False):
        steps = [{"type": "pointerMove", "duration": 0, "origin": "viewport", "x": int(x), "y": int(y)}]
        if click:
            steps += [{"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]
        self.actions({"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": steps})

    def key(self, k):
        self.actions({"type": "key", "id": "kbd", "actions": [{"type": "keyDown", "value": k},
                                                                {"type": "keyUp", "value": k}]})

    def wait_for(self, script, *args, timeout=WAIT):
        """The script's first truthy value, or its last value after `timeout` s."""
        deadline = time.time() + timeout
        while True:
            v = self.js(script, *args)
            if v or time.time() > deadline:
                return v
            time.sleep(0.05)


class Tap:
    """TAP-like lines, one per check, and the summary line the tests end with."""

    def __init__(self):
        self.n = self.passed = self.failed = 0

    def check(self, ok, what, detail=""):
        self.n += 1
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print("%s %d - %s%s" % ("ok" if ok else "not ok", self.n, what, (" # " + detail) if detail else ""),
              flush=True)
        return ok

    def finish(self):
        """Print the summary and exit: 0 when checks ran and all passed."""
        print("%d passed, %d failed" % (self.passed, self.failed))
        sys.exit(0 if self.failed == 0 and self.passed > 0 else 1)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class BrowserSession:
    """ChromeDriver, one browser session and an overall time limit (SIGALRM
    raises Timeout in the body); everything is killed on exit."""

    def __init__(self, chromium, driver, timeout):
        self.chromium, self.driver, self.timeout = chromium, driver, timeout
        self.proc = self.wd = None
        self.tmp = tempfile.mkdtemp(prefix="browser-test-")

    def _start_once(self, attempt):
        self.proc = subprocess.Popen([self.driver, "--port=%d" % _free_port()], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        port = int(self.proc.args[1].split("=", 1)[1])
        self.wd = WebDriver(port)
        self.wd.wait_listening()
        self.wd.start(self.chromium, os.path.join(self.tmp, "profile-%d" % attempt))

    def _stop(self):
        if self.wd is not None:
            self.wd.quit()
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
            self.proc = None

    def __enter__(self):
        def on_alarm(signum, frame):
            raise Timeout("overall timeout of %d s" % self.timeout)
        signal.signal(signal.SIGALRM, on_alarm)
        signal.alarm(self.timeout)
        for attempt in range(1, SESSION_ATTEMPTS + 1):
            try:
                self._start_once(attempt)
                return self.wd
            except Timeout:
                self.__exit__(None, None, None)
                raise
            except Exception as e:
                self._stop()
                if attempt == SESSION_ATTEMPTS:
                    self.__exit__(None, None, None)
                    raise
                print("# browser session did not start (%s: %s); trying again" % (type(e).__name__, e),
                      flush=True)

    def __exit__(self, *exc):
        signal.alarm(0)
        self._stop()
        shutil.rmtree(self.tmp, ignore_errors=True)
        return False


def run_checks(t, chromium, driver, timeout, body):
    """Run body(wd) in a browser session; a crash or a timeout is a failed
    check (never a hang), then the summary and exit."""
    try:
        with BrowserSession(chromium, driver, timeout) as wd:
            body(wd)
    except (Timeout, Exception) as e:
        t.check(False, "test run completed", "%s: %s" % (type(e).__name__, e))
    t.finish()


def tool_arguments(doc):
    """An argument parser with --jfrtool and --testdata (defaults from
    $JFRTOOL and $JFR_TESTDATA, as make check sets them)."""
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jfrtool", default=os.environ.get("JFRTOOL", os.path.join(os.getcwd(), "jfrtool", "jfrtool")))
    ap.add_argument("--testdata", default=os.environ.get("JFR_TESTDATA", os.path.join(top, "testdata")))
    return ap


def require_jfrtool(path):
    """Exit 77 (skip) when jfrtool is not built at path."""
    if not os.access(path, os.X_OK):
        print("SKIP: no jfrtool at %s" % path)
        sys.exit(77)


def run_in_tmp(t, chromium, driver, timeout, prefix, body):
    """run_checks with a scratch directory: body(wd, tmp)."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    try:
        run_checks(t, chromium, driver, timeout, lambda wd: body(wd, tmp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
