#!/usr/bin/env python3
"""`launchprof history dashboard` in headless Chromium, from the file system (file://).

Builds a results directory of 30 commits from a real result (RESULT.json: every run copied, each
commit given its own hash and date, one phase 25% slower from commit 18 on; the first 12 also from a
second host, a group of its own), asks `history detect --format json` where the steps are, writes the
dashboard, and opens its index.html in headless Chromium over the DevTools protocol. Checks: one chart per series, the change-point markers on the
detected commits (the chart's own tooltip at each marker's place names its commit), a click shows that
commit's diff against its parent, the environment selector shows the other host's charts, and nothing
logged as an error.

    python3 Tests/Integration/dashboard_check.py LAUNCHPROF RESULT.json

Exit 0 when all holds, 1 otherwise; prints SKIP and exits 0 only when Chromium is unavailable.
"""
import copy
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perfetto_check import find_chromium, free_port  # noqa: E402

COMMITS, STEP_AT, STEPPED, OTHER_COMMITS = 30, 18, "decoding splash.png", 12


def fail(message):
    print(f"dashboard: FAIL: {message}")
    sys.exit(1)


def make_history(template, directory):
    """30 result files, oldest first; STEPPED 25% slower from commit STEP_AT; each run a little apart."""
    os.makedirs(directory)
    hashes = []
    for n in range(COMMITS):
        result = copy.deepcopy(template)
        commit = hashlib.sha1(f"commit {n}".encode()).hexdigest()
        hashes.append(commit)
        result["git"] = {"commit": commit, "branch": "main", "dirty": False}
        result["date"] = f"2026-11-25T10:{n // 60:02d}:{n % 60:02d}Z"
        for r, run in enumerate(result["runs"]):
            wobble = 1 + ((n * 7 + r * 3) % 11 - 5) * 0.001
            for phase in run["phases"]:
                phase["duration"] *= wobble * (1.25 if phase["name"] == STEPPED and n >= STEP_AT else 1)
        with open(os.path.join(directory, f"{commit}.json"), "w") as f:
            json.dump(result, f)
        if n < OTHER_COMMITS:
            # The first commits measured on another host too: a second environment, a group of its own.
            result["host"] = dict(result["host"], cpuModel="Other CPU " + result["host"]["cpuModel"])
            with open(os.path.join(directory, f"{commit}-other.json"), "w") as f:
                json.dump(result, f)
    return hashes


class Browser:
    def __init__(self, chromium):
        import websocket
        self.port = free_port()
        self.profile = tempfile.mkdtemp(prefix="launchprof-chromium-")
        self.process = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
             "--window-size=1400,1000", f"--remote-debugging-port={self.port}", f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline, target = time.time() + 30, None
        while time.time() < deadline and target is None:
            try:
                targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/list", timeout=2))
                target = next((t for t in targets if t.get("type") == "page"), None)
            except OSError:
                time.sleep(0.2)
        if target is None:
            self.close()
            fail("headless Chromium did not open its DevTools port within 30 s")
        self.ws = websocket.create_connection(target["webSocketDebuggerUrl"], timeout=60, suppress_origin=True)
        self.counter, self.errors = 0, []

    def call(self, method, **params):
        self.counter += 1
        ident = self.counter
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == ident:
                if "error" in message:
                    fail(f"{method}: {message['error']}")
                return message["result"]
            self.note(message)

    def note(self, message):
        """Console errors, uncaught exceptions and errors the browser logs (a file it could not load)."""
        method, params = message.get("method"), message.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            self.errors.append("console: " + " ".join(str(a.get("value", a.get("description"))) for a in params.get("args", [])))
        elif method == "Runtime.exceptionThrown":
            self.errors.append("exception: " + json.dumps(params.get("exceptionDetails", {}))[:400])
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            self.errors.append("log: " + params["entry"].get("text", ""))

    def evaluate(self, expression):
        answer = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in answer:
            fail(f"evaluating {expression[:80]!r}: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    def mouse(self, kind, x, y):
        self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left" if kind != "mouseMoved" else "none", clickCount=1)

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def run(arguments, cwd):
    done = subprocess.run(arguments, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"{' '.join(arguments[1:4])} exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def check_page(browser, site, detected, series_count):
    browser.call("Runtime.enable")
    browser.call("Log.enable")
    browser.call("Page.enable")
    browser.call("Page.navigate", url="file://" + os.path.join(site, "index.html"))
    deadline = time.time() + 60
    while browser.evaluate("(location.protocol === 'file:' && document.documentElement && document.documentElement.dataset.drawnMs) || ''") == "":
        if time.time() > deadline:
            fail(f"the page did not draw within 60 s: {browser.errors}")
        time.sleep(0.2)
    phases = browser.evaluate("[...document.querySelectorAll('section.chart')].map(s => s.dataset.phase)")
    wanted = {"launch total", "Time to first frame", "Time to interactive", "peak memory"}
    if len(phases) != series_count or len(set(phases)) != len(phases) or not wanted <= set(phases):
        fail(f"{len(phases)} charts {sorted(phases)}, not one for each of the {series_count} series `history detect` read (with {sorted(wanted)})")
    paths = browser.evaluate("[...document.querySelectorAll('section.chart path.line')].filter(p => p.getAttribute('d').split('L').length >= 30).length")
    if paths != len(phases):
        fail(f"{paths} of {len(phases)} charts have a line through the 30 commits")
    markers = browser.evaluate("""[...document.querySelectorAll('section.chart')].flatMap(s =>
        [...s.querySelectorAll('.change-point')].map(m => { const r = m.querySelector('line').getBoundingClientRect();
          return [s.dataset.phase, m.dataset.commit, r.left + r.width / 2, r.top + r.height / 2]; }))""")
    found = sorted((phase, commit) for phase, commit, _, _ in markers)
    expected = sorted((phase, commit) for phase, commits in detected.items() for commit in commits)
    if found != expected:
        fail(f"markers {found} are not the change points `history detect` found {expected}")
    if not expected:
        fail("`history detect` found no change point in the planted history: nothing to check markers against")
    for phase, commit, x, y in markers:
        browser.call("Runtime.evaluate", expression=f"window.scrollTo(0, {y} - 300 + window.scrollY)")
        rect = browser.evaluate(f"""(() => {{ const m = [...document.querySelectorAll('section.chart')].find(s => s.dataset.phase === {json.dumps(phase)})
            .querySelector('.change-point[data-commit="{commit}"] line').getBoundingClientRect(); return [m.left + m.width / 2, m.top + m.height / 2]; }})()""")
        # The chart itself says which commit is under the marker: markers let the pointer through to the
        # chart for the hover, then take it back for the click.
        browser.evaluate("document.querySelectorAll('.change-point').forEach(m => m.style.pointerEvents = 'none')")
        browser.mouse("mouseMoved", rect[0], rect[1])
        hovered = browser.evaluate("[document.getElementById('tooltip').dataset.commit, document.getElementById('tooltip').hidden, document.getElementById('tooltip').textContent]")
        browser.evaluate("document.querySelectorAll('.change-point').forEach(m => m.style.pointerEvents = '')")
        if hovered[0] != commit or hovered[1]:
            fail(f"the tooltip at {phase}'s marker names {hovered[0]} ({hovered[2]!r}), not {commit}")
        browser.mouse("mousePressed", rect[0], rect[1])
        browser.mouse("mouseReleased", rect[0], rect[1])
        shown = browser.evaluate(f"""(() => {{ const d = document.getElementById('diff');
            const row = [...d.querySelectorAll('tr')].find(r => r.dataset.phase === {json.dumps(phase)});
            return [d.hidden, d.dataset.commit || '', row ? row.className : 'missing', row ? row.lastChild.textContent : '', d.querySelector('h2').textContent]; }})()""")
        if shown[0] or shown[1] != commit or shown[2] != "step" or not shown[3].startswith(("+", "-")):
            fail(f"a click on {phase}'s marker at {commit[:12]} did not show its diff: {shown}")
    # A click on the chart's line away from markers: the commit under the pointer.
    point = browser.evaluate("""(() => { const s = document.querySelector('section.chart'); s.scrollIntoView(); const r = s.querySelector('.overlay').getBoundingClientRect(); return [r.left + 2, r.top + r.height / 2]; })()""")
    browser.mouse("mousePressed", point[0], point[1])
    browser.mouse("mouseReleased", point[0], point[1])
    first = browser.evaluate("document.getElementById('diff').dataset.commit || ''")
    return len(phases), len(markers), first


def check_selector(browser, charts):
    """The environment selector shows the other host's group: as many charts, its 12 commits."""
    shown = browser.evaluate("""(() => { const select = document.getElementById('select-environment');
        const before = document.documentElement.dataset.group;
        select.value = [...select.options].map(o => o.value).find(v => v !== select.value);
        select.dispatchEvent(new Event('change'));
        const sections = [...document.querySelectorAll('section.chart')];
        return [select.options.length, before !== document.documentElement.dataset.group, sections.length,
                sections.every(s => s.dataset.commits === '12'), document.getElementById('diff').hidden]; })()""")
    if shown != [2, True, charts, True, True]:
        fail(f"choosing the other environment did not show its group (options, changed, charts, 12 commits each, diff closed): {shown}")


def main():
    launchprof, template_path = os.path.abspath(sys.argv[1]), sys.argv[2]
    chromium = find_chromium()
    if not chromium:
        print("dashboard: SKIP: Chromium is not installed and could not be installed; the dashboard check did not run")
        return 0
    template = json.load(open(template_path))
    work = tempfile.mkdtemp(prefix="launchprof-dashboard-")
    browser = None
    try:
        hashes = make_history(template, os.path.join(work, "results"))
        report = json.loads(run([launchprof, "history", "detect", "--store", "results", "--format", "json"], work))
        planted = next((p for p in report["changePoints"] if p["phase"].split("/")[-1] == STEPPED and p["commit"] == hashes[STEP_AT]), None)
        if planted is None:
            fail(f"`history detect` did not find the planted step in {STEPPED!r} at commit {STEP_AT}: {report['changePoints']}")
        # The dashboard opens on the group of most commits: the first host's.
        detected = {}
        for point in report["changePoints"]:
            if point["environment"] == planted["environment"]:
                detected.setdefault(point["phase"], []).append(point["commit"])
        run([launchprof, "history", "dashboard", "--store", "results", "--output", "site", "--quiet"], work)
        browser = Browser(chromium)
        charts, markers, first = check_page(browser, os.path.join(work, "site"), detected, report["seriesCount"] // 2)
        check_selector(browser, charts)
        if first != hashes[0]:
            fail(f"a click at the chart's left edge showed {first!r}, not the first commit {hashes[0]}")
        time.sleep(0.3)
        browser.call("Runtime.evaluate", expression="0")  # collect events still in flight
        if browser.errors:
            fail("the page logged errors: " + "; ".join(browser.errors))
    finally:
        if browser:
            browser.close()
        shutil.rmtree(work, ignore_errors=True)
    print(f"dashboard: OK: {charts} charts from file://, {markers} change-point markers at the commits `history detect` found, each commit's diff on a click, the other host's group on choosing it, no console errors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
