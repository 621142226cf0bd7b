"""Headless Chromium driven over the DevTools protocol, for the integration checks that render
launchprof's output in a browser (perfetto_check.py, flamegraph_check.py)."""
import contextlib
import json
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@contextlib.contextmanager
def devtools_page(chromium, fail):
    """Starts `chromium` headless and yields `call(method, **params)` on its first page; `fail(message)`
    is called (and must not return) when it does not start or a call fails."""
    import websocket
    debug_port = free_port()
    profile = tempfile.mkdtemp(prefix="launchprof-chromium-")
    browser = subprocess.Popen(
        [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
         f"--remote-debugging-port={debug_port}", f"--user-data-dir={profile}", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 30
        target = None
        while time.time() < deadline and target is None:
            try:
                targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{debug_port}/json/list", timeout=2))
                target = next((t for t in targets if t.get("type") == "page"), None)
            except OSError:
                time.sleep(0.2)
        if target is None:
            fail("headless Chromium did not open its DevTools port within 30 s")
        ws = websocket.create_connection(target["webSocketDebuggerUrl"], timeout=120, suppress_origin=True)
        counter = [0]

        def call(method, **params):
            counter[0] += 1
            ident = counter[0]
            ws.send(json.dumps({"id": ident, "method": method, "params": params}))
            while True:
                message = json.loads(ws.recv())
                if message.get("id") == ident:
                    if "error" in message:
                        fail(f"{method}: {message['error']}")
                    return message["result"]

        yield call
        ws.close()
    finally:
        browser.terminate()
        try:
            browser.wait(timeout=10)
        except subprocess.TimeoutExpired:
            browser.kill()
        shutil.rmtree(profile, ignore_errors=True)
