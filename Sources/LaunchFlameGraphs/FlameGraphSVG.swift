import LaunchCore

/// launchprof's own SVG flame graph: self-contained (no network, no fonts to fetch), a picker to show
/// one graph at a time (the whole launch, then each phase), hover titles with each frame's weight and
/// share, and click-to-zoom (a click on a frame widens it to the whole graph; a click on a root frame
/// or on "Reset zoom" undoes it). Roots at the bottom, callees above, children sorted by name.
public struct FlameGraphSVG: Sendable {
    /// The picture's width in pixels.
    public var width = 1200
    static let frameHeight = 16
    static let margin = 10
    static let characterWidth = 7.0
    /// Frames narrower than this share of a graph are left out (a quarter of a pixel): even when zoomed.
    static let minimumWidth = 0.25 / 1180

    public init() {}

    /// One flame graph per entry of `phases` (the first shown), weights in `unit`, titled `title`.
    public func svg(_ phases: [PhaseStacks], unit: StackProfile.Unit, title: String) -> String {
        let graphs = phases.map { phase in Graph(name: phase.phase, tree: FlameGraphTree(phase), differential: false) }
        return document(graphs, unit: unit, title: title)
    }

    /// Differential flame graphs, one per phase pair: each frame as wide as in the candidate, red when it
    /// grew from the baseline, blue when it shrank, the deeper the colour the larger the change (relative to
    /// the graph's largest). A stack the candidate no longer has has no width: it shows only in the other
    /// direction (baseline and candidate swapped).
    public func differentialSVG(_ pairs: [(baseline: PhaseStacks, candidate: PhaseStacks)], unit: StackProfile.Unit, title: String) -> String {
        let graphs = pairs.map { pair in
            Graph(name: pair.candidate.phase, tree: FlameGraphTree(DifferentialStacks(baseline: pair.baseline, candidate: pair.candidate)), differential: true)
        }
        return document(graphs, unit: unit, title: title)
    }

    struct Graph {
        var name: String
        var tree: FlameGraphTree
        var differential: Bool
    }

    func document(_ graphs: [Graph], unit: StackProfile.Unit, title: String) -> String {
        let plotWidth = Double(width - 2 * Self.margin)
        let picker = pickerRows(graphs.map(\.name), width: plotWidth)
        let top = 54 + picker.rows * 18
        let layouts = graphs.map { $0.tree.placed(minimumWidth: Self.minimumWidth) }
        let depth = layouts.map { ($0.map(\.depth).max() ?? -1) + 1 }.max() ?? 0
        let height = top + depth * Self.frameHeight + Self.margin
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" \
            data-top="\(top)" data-left="\(Self.margin)" data-width="\(Int(plotWidth))">
            <style>text{font-family:Verdana,DejaVu Sans,sans-serif;font-size:12px;fill:#000}\
            .pick{cursor:pointer;fill:#555}.pick.on{fill:#000;font-weight:bold}.f{cursor:pointer}\
            .f rect{stroke:#fff;stroke-width:0.5}.f:hover rect{stroke:#000}#reset{cursor:pointer;fill:#36c}</style>
            <rect x="0" y="0" width="\(width)" height="\(height)" fill="#fafafa"/>
            <text x="\(Self.margin)" y="20" style="font-size:15px">\(XMLText.escape(title))</text>
            <text id="reset" x="\(width - Self.margin)" y="20" text-anchor="end">Reset zoom</text>
            <text id="details" x="\(Self.margin)" y="\(top - 8)"> </text>\n
            """
        out += picker.svg
        for (index, graph) in graphs.enumerated() {
            let maxChange = layouts[index].map { Self.change($0) }.max() ?? 0
            out += "<g class=\"graph\" data-i=\"\(index)\"\(index == 0 ? "" : " display=\"none\"")>\n"
            for frame in layouts[index] {
                out += frameSVG(frame, graph: graph, unit: unit, top: top, depth: depth, plotWidth: plotWidth, maxChange: maxChange)
            }
            out += "</g>\n"
        }
        // Last, so that the frames it reads are there when it runs.
        return out + "<script><![CDATA[\(Self.script)]]></script>\n</svg>\n"
    }

    /// The phase names as clickable labels, wrapped into rows.
    func pickerRows(_ names: [String], width: Double) -> (svg: String, rows: Int) {
        var svg = ""
        var x = 0.0
        var row = 0
        for (index, name) in names.enumerated() {
            let label = XMLText.escape(name)
            let labelWidth = Double(name.count) * Self.characterWidth + 18
            if x > 0, x + labelWidth > width {
                row += 1
                x = 0
            }
            svg +=
                "<text class=\"pick\(index == 0 ? " on" : "")\" data-i=\"\(index)\" x=\(quoted(Double(Self.margin) + x)) y=\"\(42 + row * 18)\">\(label)</text>\n"
            x += labelWidth
        }
        return (svg, names.isEmpty ? 0 : row + 1)
    }

    func frameSVG(_ frame: FlameGraphTree.Placed, graph: Graph, unit: StackProfile.Unit, top: Int, depth: Int, plotWidth: Double, maxChange: UInt64) -> String {
        let x = Double(Self.margin) + frame.start * plotWidth
        let w = frame.width * plotWidth
        let y = top + (depth - 1 - frame.depth) * Self.frameHeight
        let fill = graph.differential ? Self.differentialColour(frame, maxChange: maxChange) : Self.colour(frame.name)
        return "<g class=\"f\"><title>\(XMLText.escape(Self.title(frame, total: graph.tree.nodes[0], unit: unit, differential: graph.differential)))</title>"
            + "<rect x=\(quoted(x)) y=\"\(y)\" width=\(quoted(max(0, w - 0.5))) height=\"\(Self.frameHeight - 1)\" fill=\"\(fill)\"/>"
            + "<text x=\(quoted(x + 3)) y=\"\(y + 12)\">\(XMLText.escape(Self.label(frame.name, width: w)))</text></g>\n"
    }

    /// `value` with two decimals, quoted for an attribute.
    func quoted(_ value: Double) -> String {
        "\"\((value * 100).rounded() / 100)\""
    }

    /// As much of `name` as fits `width` pixels (with `..` when cut), or nothing under three characters.
    static func label(_ name: String, width: Double) -> String {
        let fits = Int((width - 6) / characterWidth)
        if fits >= name.count { return name }
        return fits < 3 ? "" : String(name.prefix(fits - 2)) + ".."
    }

    static func title(_ frame: FlameGraphTree.Placed, total: FlameGraphTree.Node, unit: StackProfile.Unit, differential: Bool) -> String {
        guard differential else {
            return "\(frame.name) — \(grouped(frame.weight)) \(unit.rawValue), \(percent(frame.weight, of: total.weight))"
        }
        let delta = Int64(clamping: frame.weight) - Int64(clamping: frame.baseline)
        let sign = delta > 0 ? "+" : delta < 0 ? "−" : "±"
        let change =
            frame.baseline > 0
            ? " (\(sign)\(percent(frame.weight > frame.baseline ? frame.weight - frame.baseline : frame.baseline - frame.weight, of: frame.baseline)))"
            : " (new)"
        return "\(frame.name) — baseline \(grouped(frame.baseline)), candidate \(grouped(frame.weight)) \(unit.rawValue): "
            + "\(sign)\(grouped(delta.magnitude))\(change)"
    }

    static func percent(_ part: UInt64, of whole: UInt64) -> String {
        guard whole > 0 else { return "0%" }
        let value = (Double(part) / Double(whole) * 10000).rounded() / 100
        return "\(value)%"
    }

    /// `1234567` as `1,234,567`.
    static func grouped(_ value: UInt64) -> String {
        let digits = Array(String(value))
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return out
    }

    static func change(_ frame: FlameGraphTree.Placed) -> UInt64 {
        frame.weight > frame.baseline ? frame.weight - frame.baseline : frame.baseline - frame.weight
    }

    /// Red for a frame that grew, blue for one that shrank, white for one unchanged; deeper the larger
    /// the change against the graph's largest.
    static func differentialColour(_ frame: FlameGraphTree.Placed, maxChange: UInt64) -> String {
        guard maxChange > 0, frame.weight != frame.baseline else { return "rgb(255,255,255)" }
        let strength = Double(change(frame)) / Double(maxChange)
        let light = Int((255 - 200 * strength).rounded())
        return frame.weight > frame.baseline ? "rgb(255,\(light),\(light))" : "rgb(\(light),\(light),255)"
    }

    /// A warm colour that depends on the name only (FNV-1a), so a function keeps its colour across graphs.
    static func colour(_ name: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "rgb(\(205 + hash % 50),\((hash >> 8) % 230),\((hash >> 16) % 55))"
    }

    /// The picker, the hover details and the zoom: plain DOM calls, no library.
    static let script = """

        const svg = document.documentElement;
        const L = +svg.dataset.left, W = +svg.dataset.width, H = 16;
        // Each frame's place in the unzoomed graph, its depth and its name, read from what is drawn.
        for (const f of svg.querySelectorAll('g.f')) {
          const r = f.querySelector('rect');
          f.x = (+r.getAttribute('x') - L) / W; f.w = (+r.getAttribute('width') + 0.5) / W; f.y = +r.getAttribute('y');
          f.n = f.querySelector('title').textContent.split(' — ')[0];
        }
        function fit(name, w) { const n = Math.floor((w - 6) / 7); return n >= name.length ? name : n < 3 ? '' : name.slice(0, n - 2) + '..'; }
        function place(f, x, w) {
          const r = f.querySelector('rect'), t = f.querySelector('text');
          r.setAttribute('x', L + x * W); r.setAttribute('width', Math.max(0, w * W - 0.5));
          t.setAttribute('x', L + x * W + 3); t.textContent = fit(f.n, w * W);
        }
        function zoom(graph, x0, w0, y0) {
          for (const f of graph.querySelectorAll('g.f')) {
            let nx = (f.x - x0) / w0, nw = f.w / w0;
            if (f.y > y0) { if (f.x <= x0 + 1e-9 && f.x + f.w >= x0 + w0 - 1e-9) { nx = 0; nw = 1; } else { nw = 0; } }
            if (nw * W < 0.1 || nx >= 1 || nx + nw <= 0) { f.setAttribute('display', 'none'); continue; }
            f.removeAttribute('display'); place(f, nx, nw);
          }
        }
        function show(i) {
          for (const g of svg.querySelectorAll('g.graph')) g.setAttribute('display', +g.dataset.i === i ? 'inline' : 'none');
          for (const p of svg.querySelectorAll('text.pick')) p.setAttribute('class', +p.dataset.i === i ? 'pick on' : 'pick');
        }
        svg.addEventListener('click', e => {
          const pick = e.target.closest('text.pick');
          if (pick) { show(+pick.dataset.i); return; }
          if (e.target.closest('#reset')) { for (const g of svg.querySelectorAll('g.graph')) zoom(g, 0, 1, Infinity); return; }
          const f = e.target.closest('g.f');
          if (f) zoom(f.parentNode, f.x, f.w, f.y);
        });
        svg.addEventListener('mouseover', e => {
          const f = e.target.closest('g.f');
          if (f) document.getElementById('details').textContent = f.querySelector('title').textContent;
        });

        """
}
