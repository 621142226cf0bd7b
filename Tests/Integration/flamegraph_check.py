#!/usr/bin/env python3
"""Renders launchprof's SVG flame graphs in headless Chromium and checks them from the page itself.

    python3 Tests/Integration/flamegraph_check.py FLAME.svg DIFF.svg

For each file, over the DevTools protocol: the SVG parses (no <parsererror>), has graphs, one shown at a
time, every frame a <rect> with a hover <title>, frames laid out inside the picture; a click on the
picker's second label shows the second graph and hides the first; a click on a narrow frame zooms it to
the whole width and "Reset zoom" undoes it. The differential one must have frames coloured red (grown)
and blue (shrunk). Exit 0 when all hold, 1 when not; prints SKIP and exits 0 only without Chromium.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from headless_chromium import devtools_page, find_chromium  # noqa: E402


def fail(message):
    print(f"flamegraph: FAIL: {message}")
    sys.exit(1)


CHECK = """(() => {
  const svg = document.documentElement;
  if (document.getElementsByTagName('parsererror').length) return {error: 'the SVG does not parse'};
  if (svg.tagName !== 'svg') return {error: 'the document is not an SVG: ' + svg.tagName};
  const graphs = [...svg.querySelectorAll('g.graph')];
  const shown = () => graphs.map(g => getComputedStyle(g).display !== 'none');
  const frames = [...svg.querySelectorAll('g.f')];
  const untitled = frames.filter(f => !f.querySelector('title') || !f.querySelector('title').textContent.includes(' — ')).length;
  const box = svg.getBBox();
  const width = +svg.getAttribute('width');
  const outside = frames.filter(f => { const r = f.querySelector('rect'); return +r.getAttribute('x') < 0 || +r.getAttribute('x') + +r.getAttribute('width') > width + 0.01; }).length;
  const before = shown();
  const picks = [...svg.querySelectorAll('text.pick')];
  let after = before;
  if (picks.length > 1) { picks[1].dispatchEvent(new MouseEvent('click', {bubbles: true})); after = shown(); picks[0].dispatchEvent(new MouseEvent('click', {bubbles: true})); }
  const visible = graphs[0] ? [...graphs[0].querySelectorAll('g.f')] : [];
  const plot = +svg.dataset.width;
  const narrow = visible.find(f => { const w = +f.querySelector('rect').getAttribute('width'); return w > 2 && w < plot / 4; });
  let zoomed = null, reset = null;
  if (narrow) {
    const r = narrow.querySelector('rect'), original = +r.getAttribute('width');
    narrow.querySelector('rect').dispatchEvent(new MouseEvent('click', {bubbles: true}));
    zoomed = +r.getAttribute('width');
    svg.querySelector('#reset').dispatchEvent(new MouseEvent('click', {bubbles: true}));
    reset = Math.abs(+r.getAttribute('width') - original) < 0.01;
  }
  const fills = frames.map(f => f.querySelector('rect').getAttribute('fill'));
  const red = fills.filter(c => /^rgb\\(255,(\\d+),\\1\\)$/.test(c) && c !== 'rgb(255,255,255)').length;
  const blue = fills.filter(c => /^rgb\\((\\d+),\\1,255\\)$/.test(c) && c !== 'rgb(255,255,255)').length;
  return {graphs: graphs.length, before, after, frames: frames.length, untitled, outside, boxWidth: box.width, boxHeight: box.height,
          plot, zoomed, reset, red, blue, picks: picks.length};
})()"""


def check(call, path, differential):
    call("Page.navigate", url="file://" + os.path.abspath(path))
    deadline = time.time() + 60
    while time.time() < deadline:
        state = call("Runtime.evaluate", expression="document.readyState", returnByValue=True)
        if state.get("result", {}).get("value") == "complete":
            break
        time.sleep(0.2)
    else:
        fail(f"{path}: Chromium did not load it within 60 s")
    answer = call("Runtime.evaluate", expression=CHECK, returnByValue=True)
    if "exceptionDetails" in answer:
        fail(f"{path}: the check threw: {answer['exceptionDetails']}")
    r = answer["result"]["value"]
    if "error" in r:
        fail(f"{path}: {r['error']}")
    if r["graphs"] < 1 or r["frames"] < 10:
        fail(f"{path}: {r['graphs']} graphs and {r['frames']} frames")
    if r["before"].count(True) != 1 or not r["before"][0]:
        fail(f"{path}: the first graph alone should show at first: {r['before']}")
    if r["graphs"] > 1 and (r["after"].count(True) != 1 or not r["after"][1]):
        fail(f"{path}: the picker's second label should show the second graph alone: {r['after']}")
    if r["untitled"] or r["outside"]:
        fail(f"{path}: {r['untitled']} frames without a hover title, {r['outside']} outside the picture")
    if r["boxWidth"] <= 0 or r["boxHeight"] <= 0:
        fail(f"{path}: nothing was drawn")
    if r["zoomed"] is None or abs(r["zoomed"] - (r["plot"] - 0.5)) > 0.01 or not r["reset"]:
        fail(f"{path}: a click should widen a frame to the whole graph ({r['zoomed']} of {r['plot']}) and Reset zoom undo it ({r['reset']})")
    if differential and (r["red"] == 0 or r["blue"] == 0):
        fail(f"{path}: a differential flame graph with {r['red']} red and {r['blue']} blue frames")
    kind = "differential " if differential else ""
    print(f"flamegraph: OK: {path}: {kind}{r['graphs']} graphs, {r['frames']} frames with titles, picker and zoom work"
          + (f", {r['red']} red and {r['blue']} blue frames" if differential else ""))


def main():
    flame, diff = sys.argv[1], sys.argv[2]
    chromium = find_chromium()
    if not chromium:
        print("flamegraph: SKIP: Chromium is not installed and could not be installed; the flame graphs were not rendered")
        return 0
    with devtools_page(chromium, fail) as call:
        check(call, flame, differential=False)
        check(call, diff, differential=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
