/// The dashboard's `dashboard.js`: draws one SVG trend chart per series of the selected group
/// (environment, tier, metric, target) from the data embedded in the page, change points marked;
/// hover shows a commit's value, a click its diff against its parent. No library, no network: every
/// text is set with `textContent`, never parsed as HTML. A chart of more commits than it has pixel
/// columns is drawn as each column's lowest and highest value, so 10,000 commits stay one short path.
enum DashboardScript {
    static let javascript = #"""
        "use strict";
        (function () {
          const SVG = "http://www.w3.org/2000/svg";
          const W = 960, H = 170, LEFT = 78, RIGHT = 12, TOP = 16, BOTTOM = 22;
          const PLOT = W - LEFT - RIGHT, PLOT_H = H - TOP - BOTTOM;
          const data = JSON.parse(document.getElementById("launchprof-data").textContent);
          const fields = ["environment", "tier", "metric", "target"];
          const selects = {};
          const tooltip = document.getElementById("tooltip");
          const charts = document.getElementById("charts");
          const diff = document.getElementById("diff");
          let group = null;

          function el(tag, attributes, text) {
            const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
            for (const name in attributes || {}) node.setAttribute(name, attributes[name]);
            if (text !== undefined) node.textContent = text;
            return node;
          }
          const short = (hash) => hash.slice(0, 12);
          const runsAt = (series, position) => (typeof series.runs === "number" ? series.runs : series.runs[position]);

          function formatValue(value, unit) {
            if (value === null || value === undefined) return "–";
            if (unit === "bytes") return (value / 1048576).toFixed(1) + " MiB";
            if (unit === "instructions") return Math.round(value).toLocaleString("en-US");
            const abs = Math.abs(value);
            if (abs >= 1) return value.toFixed(3) + " s";
            if (abs >= 1e-3) return (value * 1e3).toPrecision(4) + " ms";
            return (value * 1e6).toPrecision(4) + " µs";
          }
          function formatChange(before, after) {
            if (before === null || after === null || before === undefined || after === undefined) return "";
            if (before === 0) return after === 0 ? "+0.0%" : "new";
            const percent = (after / before - 1) * 100;
            return (percent >= 0 ? "+" : "") + percent.toFixed(1) + "%";
          }
          function environmentName(key) { return data.environments[key] ? data.environments[key] + " (" + key + ")" : key; }

          // Selectors: one per field; a change keeps the other fields where a group has them.
          function fillSelectors() {
            for (const field of fields) {
              const select = document.getElementById("select-" + field);
              selects[field] = select;
              const values = [...new Set(data.groups.map((g) => g[field]))].sort();
              for (const value of values) select.appendChild(el("option", { value: value }, field === "environment" ? environmentName(value) : value));
              select.disabled = values.length < 2;
              select.addEventListener("change", () => choose(field));
            }
          }
          function choose(changed) {
            const wanted = {};
            for (const field of fields) wanted[field] = selects[field].value;
            const score = (g) => (g[changed] === wanted[changed] ? 100 : 0) + fields.filter((f) => g[f] === wanted[f]).length;
            let best = data.groups[0];
            for (const g of data.groups) if (score(g) > score(best)) best = g;
            show(best);
          }
          function show(chosen) {
            group = chosen;
            for (const field of fields) selects[field].value = group[field];
            charts.textContent = "";
            closeDiff();
            group.series.forEach((series, index) => charts.appendChild(chart(series, index)));
            document.documentElement.dataset.group = fields.map((f) => group[f]).join("|");
          }

          const xOf = (position) => LEFT + (group.commits.length < 2 ? PLOT / 2 : (position / (group.commits.length - 1)) * PLOT);

          function range(values) {
            let low = Infinity, high = -Infinity;
            for (const v of values) if (v !== null) { if (v < low) low = v; if (v > high) high = v; }
            if (low === Infinity) return [0, 1];
            if (low === high) { const pad = Math.abs(low) * 0.05 || 1; return [low - pad, high + pad]; }
            const pad = (high - low) * 0.06;
            return [low - pad, high + pad];
          }

          // The line: every point when they fit, else per pixel column its lowest and highest value, in order.
          function pathOf(values, yOf) {
            const n = values.length, parts = [];
            let open = false;
            const add = (x, v) => { parts.push((open ? "L" : "M") + x.toFixed(1) + " " + yOf(v).toFixed(1)); open = true; };
            if (n <= PLOT * 2) {
              for (let i = 0; i < n; i++) { if (values[i] === null) { open = false; continue; } add(xOf(i), values[i]); }
              return parts.join("");
            }
            for (let column = 0; column < PLOT; column++) {
              const from = Math.floor((column * n) / PLOT), to = Math.floor(((column + 1) * n) / PLOT);
              let low = null, high = null, lowAt = 0, highAt = 0;
              for (let i = from; i < to; i++) {
                const v = values[i];
                if (v === null) continue;
                if (low === null || v < low) { low = v; lowAt = i; }
                if (high === null || v > high) { high = v; highAt = i; }
              }
              if (low === null) { open = false; continue; }
              const x = LEFT + column + 0.5;
              if (lowAt <= highAt) { add(x, low); add(x, high); } else { add(x, high); add(x, low); }
            }
            return parts.join("");
          }

          function chart(series, index) {
            const section = el("section", { class: "chart", "data-phase": series.phase, "data-index": String(index), "data-commits": String(group.commits.length) });
            const title = el("h2", {}, series.phase);
            if (series.steps.length) title.appendChild(el("span", { class: "steps" }, series.steps.length + " change point" + (series.steps.length > 1 ? "s" : "")));
            section.appendChild(title);
            const svg = el("svg:svg", { class: "trend", viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": series.phase });
            const [low, high] = range(series.values);
            const yOf = (v) => TOP + PLOT_H - ((v - low) / (high - low)) * PLOT_H;
            svg.appendChild(el("svg:line", { class: "axis", x1: LEFT, y1: TOP + PLOT_H, x2: LEFT + PLOT, y2: TOP + PLOT_H }));
            svg.appendChild(el("svg:line", { class: "axis", x1: LEFT, y1: TOP, x2: LEFT, y2: TOP + PLOT_H }));
            svg.appendChild(el("svg:text", { x: LEFT - 6, y: TOP + 4, "text-anchor": "end" }, formatValue(high, series.unit)));
            svg.appendChild(el("svg:text", { x: LEFT - 6, y: TOP + PLOT_H, "text-anchor": "end" }, formatValue(low, series.unit)));
            const first = data.commits[group.commits[0]], last = data.commits[group.commits[group.commits.length - 1]];
            svg.appendChild(el("svg:text", { x: LEFT, y: H - 6 }, short(first.hash)));
            svg.appendChild(el("svg:text", { x: LEFT + PLOT, y: H - 6, "text-anchor": "end" }, short(last.hash) + " (" + group.commits.length + " commits)"));
            svg.appendChild(el("svg:path", { class: "line", d: pathOf(series.values, yOf) }));
            const guide = el("svg:line", { class: "guide", y1: TOP, y2: TOP + PLOT_H, visibility: "hidden" });
            svg.appendChild(guide);
            const overlay = el("svg:rect", { class: "overlay", x: LEFT - 4, y: TOP, width: PLOT + 8, height: PLOT_H });
            svg.appendChild(overlay);
            const positionAt = (event) => {
              const box = svg.getBoundingClientRect();
              const x = ((event.clientX - box.left) / box.width) * W;
              const n = group.commits.length;
              return n < 2 ? 0 : Math.max(0, Math.min(n - 1, Math.round(((x - LEFT) / PLOT) * (n - 1))));
            };
            overlay.addEventListener("mousemove", (event) => {
              const position = positionAt(event);
              guide.setAttribute("x1", xOf(position));
              guide.setAttribute("x2", xOf(position));
              guide.setAttribute("visibility", "visible");
              hover(event, series, position);
            });
            overlay.addEventListener("mouseleave", () => { guide.setAttribute("visibility", "hidden"); tooltip.hidden = true; });
            overlay.addEventListener("click", (event) => openDiff(positionAt(event)));
            for (const step of series.steps) svg.appendChild(marker(series, step));
            section.appendChild(svg);
            return section;
          }

          function marker(series, step) {
            const x = xOf(step.position);
            const g = el("svg:g", { class: "change-point", "data-commit": step.commit, "data-position": String(step.position), "data-x": x.toFixed(2) });
            g.appendChild(el("svg:line", { x1: x, x2: x, y1: TOP, y2: TOP + PLOT_H }));
            g.appendChild(el("svg:path", { d: "M" + (x - 6) + " " + (TOP - 12) + "h12l-6 10z" }));
            g.addEventListener("mousemove", (event) => hover(event, series, step.position, step));
            g.addEventListener("mouseleave", () => { tooltip.hidden = true; });
            g.addEventListener("click", () => openDiff(step.position));
            return g;
          }

          function hover(event, series, position, step) {
            const commit = data.commits[group.commits[position]];
            const lines = [short(commit.hash) + (commit.date ? "  " + commit.date : ""), series.phase + ": " + formatValue(series.values[position], series.unit) +
              (runsAt(series, position) ? "  (median of " + runsAt(series, position) + " run" + (runsAt(series, position) > 1 ? "s" : "") + ")" : "")];
            if (position > 0) lines.push("vs previous: " + formatChange(series.values[position - 1], series.values[position]));
            const begins = step || series.steps.find((s) => s.position === position);
            if (begins) lines.push("change point: " + formatValue(begins.before, series.unit) + " → " + formatValue(begins.after, series.unit) + " (" + formatChange(begins.before, begins.after) + ")");
            tooltip.textContent = lines.join("\n");
            tooltip.dataset.commit = commit.hash;
            tooltip.hidden = false;
            tooltip.style.left = Math.min(event.clientX + 14, window.innerWidth - tooltip.offsetWidth - 4) + "px";
            tooltip.style.top = event.clientY + 14 + "px";
          }

          // A commit against its parent (else the previous stored commit): every series' median, in the style of `launchprof diff`.
          function openDiff(position) {
            const commit = data.commits[group.commits[position]];
            let previous = position - 1;
            if (commit.parent) {
              const at = group.commits.findIndex((c) => data.commits[c].hash === commit.parent);
              if (at >= 0) previous = at;
            }
            const base = previous >= 0 ? data.commits[group.commits[previous]] : null;
            diff.textContent = "";
            diff.dataset.commit = commit.hash;
            const close = el("button", { type: "button" }, "close");
            close.addEventListener("click", closeDiff);
            diff.appendChild(close);
            diff.appendChild(el("h2", {}, short(commit.hash) + (base ? " vs " + (base.hash === commit.parent ? "parent " : "previous stored commit ") + short(base.hash) : " (the first commit)")));
            diff.appendChild(el("p", {}, [group.target, "tier " + group.tier, group.metric, commit.date || ""].filter(Boolean).join(" · ")));
            const table = el("table");
            const head = el("tr");
            for (const name of ["Phase", base ? short(base.hash) : "–", short(commit.hash), "Change"]) head.appendChild(el("th", {}, name));
            table.appendChild(head);
            for (const series of group.series) {
              const before = previous >= 0 ? series.values[previous] : null, after = series.values[position];
              const step = series.steps.find((s) => s.position === position);
              const row = el("tr", { "data-phase": series.phase, class: step ? "step" : "" });
              row.appendChild(el("td", {}, series.phase + (step ? " ▼" : "")));
              row.appendChild(el("td", {}, formatValue(before, series.unit)));
              row.appendChild(el("td", {}, formatValue(after, series.unit)));
              const change = formatChange(before, after);
              row.appendChild(el("td", { class: change.startsWith("+") && change !== "+0.0%" ? "slower" : change.startsWith("-") ? "faster" : "" }, change));
              table.appendChild(row);
            }
            diff.appendChild(table);
            const steps = group.series.filter((s) => s.steps.some((p) => p.position === position));
            diff.appendChild(el("p", {}, steps.length ? "▼ a change point begins here in " + steps.map((s) => s.phase).join(", ") + "." : "No change point begins at this commit."));
            diff.hidden = false;
            document.body.classList.add("with-diff");
            if (history.replaceState) history.replaceState(null, "", "#commit=" + commit.hash);
          }
          function closeDiff() { diff.hidden = true; document.body.classList.remove("with-diff"); delete diff.dataset.commit; }

          function start() {
            if (!data.groups.length) { charts.appendChild(el("p", {}, "The history holds no series yet: record results into it first.")); return; }
            fillSelectors();
            // The group with the most commits first (the first of equals).
            show(data.groups.reduce((best, g) => (g.commits.length > best.commits.length ? g : best), data.groups[0]));
            const wanted = /^#commit=([0-9a-zA-Z]+)$/.exec(location.hash);
            if (wanted) {
              const position = group.commits.findIndex((c) => data.commits[c].hash === wanted[1]);
              if (position >= 0) openDiff(position);
            }
            // Layout forced, then the time since navigation began: what the benchmark reads.
            charts.getBoundingClientRect();
            document.documentElement.dataset.drawnMs = String(Math.round(performance.now()));
          }
          start();
        })();

        """#
}
