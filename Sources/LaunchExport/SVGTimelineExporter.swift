import LaunchCore
import LaunchStats

/// A timeline of one run as SVG, in the manner of `systemd-analyze plot`: a time axis with ticks, one
/// lane per thread, one row and bar per phase (children beneath their parent), each labelled with its
/// name and duration, marks as vertical lines, the critical path outlined, and `process start`
/// (exec to main) shown first. For a multi-run result: the median run, or `run`.
public struct SVGTimelineExporter: ResultExporter {
    /// The run to draw (1-based); the median run when `nil`.
    public var run: Int?

    public init(run: Int? = nil) {
        self.run = run
    }

    static let width = 1200.0
    static let left = 24.0, right = 24.0, top = 78.0, rowHeight = 22.0, barHeight = 16.0, laneGap = 26.0
    static let colors: [String: String] = ["cpu": "#5b8fd1", "io": "#e39b2d", "decode": "#6cae4a", "draw": "#a66cc1", "": "#8c9aa5"]

    public func render(_ result: LaunchResult) throws(ExportError) -> String {
        guard let run = try selectRun(result, run) else { throw .noRunsToDraw }
        let scale = TimeScale(span: Self.span(run.phases.map(\.end) + [run.total] + run.marks.map(\.time)))
        let rows = phaseRows(run, scale)
        let axis = axisLines(scale, bottom: rows.bottom)
        let marks = markLines(run, scale, bottom: rows.bottom)
        let (legend, footer) = legendLines(run, rows)
        return document(
            title: title(result, run), subtitle: "\(result.host.cpuModel), \(result.host.cores) cores, \(result.host.os); \(result.date)",
            height: footer + 16, axis: axis, body: rows.lines, marks: marks, legend: legend)
    }

    /// Seconds to x on the canvas.
    struct TimeScale {
        let span: Double
        let plotWidth = SVGTimelineExporter.width - SVGTimelineExporter.left - SVGTimelineExporter.right

        /// The x of `seconds`, kept on the canvas (a time outside 0…span, or not finite, is drawn at the edge).
        func x(_ seconds: Double) -> Double {
            guard seconds.isFinite else { return seconds > 0 ? SVGTimelineExporter.left + plotWidth : SVGTimelineExporter.left }
            return SVGTimelineExporter.left + min(max(seconds / span, 0), 1) * plotWidth
        }
    }

    /// The phase rows drawn, lane by lane, and where they end.
    struct PhaseRows {
        var lines: [String] = []
        var bottom = 0.0
        var lanes: [(thread: Int, indices: [Int])] = []
        var drawn = 0
        var lanesDrawn = 0
    }

    /// One lane per thread, one row and bar per phase: each lane's phases gathered in one pass
    /// (walking every phase once per thread was quadratic), and at most `maximumRows` drawn: a
    /// picture cannot show 100,000 rows.
    func phaseRows(_ run: RunRecord, _ scale: TimeScale) -> PhaseRows {
        let critical = Set(PhaseAnalysis.criticalPath(run))
        var rows = PhaseRows(lanes: Self.lanes(run.phases))
        var y = Self.top
        for (thread, indices) in rows.lanes where rows.drawn < Self.maximumRows {
            rows.lanesDrawn += 1
            rows.lines.append(#"<text x="\#(f(Self.left))" y="\#(f(y + 12))" class="lane">\#(thread == 0 ? "main thread" : "thread \(thread)")</text>"#)
            y += 18
            for i in indices.prefix(Self.maximumRows - rows.drawn) {
                rows.drawn += 1
                rows.lines.append(phaseRow(run.phases[i], critical: critical.contains(i), y: y, scale))
                y += Self.rowHeight
            }
            y += Self.laneGap - Self.rowHeight / 2
        }
        rows.bottom = y
        return rows
    }

    /// A phase's bar and label at `y`, with a tooltip.
    func phaseRow(_ phase: PhaseRecord, critical: Bool, y: Double, _ scale: TimeScale) -> String {
        let x0 = scale.x(phase.start), w = max(1, scale.x(phase.end) - x0)
        let kind = phase.kind?.rawValue ?? ""
        let fill = phase.name == "process start" && phase.depth == 0 ? "#b7c2c9" : (Self.colors[kind] ?? Self.colors[""]!)
        let stroke = critical ? ##" stroke="#c62828" stroke-width="2.5""## : ""
        let opacity = phase.afterLaunch ? #" fill-opacity="0.45""# : ""
        let label = "\(phase.name) \(Self.duration(phase.duration))" + (phase.afterLaunch ? " (after launch)" : "")
        let labelWidth = Double(label.count) * 6.4
        let (lx, anchor) = x0 + w + 6 + labelWidth <= Self.width - 4 ? (x0 + w + 6, "start") : (x0 - 6, "end")
        let indent = String(repeating: "  ", count: phase.depth)
        // The system's share in the hover title, when recorded (docs/counters.md).
        let counters =
            phase.counters.flatMap { CountersFormat.text([$0], blocked: [$0.blocked(duration: phase.duration)], digits: 3) }.map { " " + $0 } ?? ""
        return
            #"<g><title>\#(escape(indent + phase.name)): start \#(Self.duration(phase.start)), duration \#(Self.duration(phase.duration))\#(escape(counters))</title>"#
            + #"<rect x="\#(f(x0))" y="\#(f(y + 3))" width="\#(f(w))" height="\#(f(Self.barHeight))" rx="2" fill="\#(fill)"\#(opacity)\#(stroke)/>"#
            + #"<text x="\#(f(lx))" y="\#(f(y + 15))" text-anchor="\#(anchor)" class="label">\#(escape(label))</text></g>"#
    }

    /// The time axis: a grid line and a label per tick, down to `bottom`.
    func axisLines(_ scale: TimeScale, bottom: Double) -> [String] {
        var axis: [String] = []
        let step = Self.tickStep(scale.span)
        for i in 0...Self.maxTicks {
            let tick = Double(i) * step
            guard tick <= scale.span + step * 1e-9 else { break }
            let tx = scale.x(tick)
            axis.append(#"<line x1="\#(f(tx))" y1="\#(f(Self.top - 8))" x2="\#(f(tx))" y2="\#(f(bottom))" class="grid"/>"#)
            axis.append(#"<text x="\#(f(tx))" y="\#(f(Self.top - 12))" text-anchor="middle" class="tick">\#(Self.duration(tick))</text>"#)
        }
        return axis
    }

    /// The end of the launch and each mark, as vertical lines with labels.
    func markLines(_ run: RunRecord, _ scale: TimeScale, bottom: Double) -> [String] {
        var marks: [String] = []
        let totalX = scale.x(run.total)
        marks.append(#"<line x1="\#(f(totalX))" y1="\#(f(Self.top - 8))" x2="\#(f(totalX))" y2="\#(f(bottom))" class="total"/>"#)
        marks.append(
            #"<text x="\#(f(totalX - 4))" y="\#(f(bottom + 14))" text-anchor="end" class="marklabel">launched \#(Self.duration(run.total))</text>"#)
        for mark in run.marks {
            let mx = scale.x(mark.time)
            marks.append(#"<line x1="\#(f(mx))" y1="\#(f(Self.top - 8))" x2="\#(f(mx))" y2="\#(f(bottom))" class="mark"/>"#)
            marks.append(#"<text x="\#(f(mx + 4))" y="\#(f(bottom + 14))" class="marklabel">\#(escape(mark.name)) \#(Self.duration(mark.time))</text>"#)
        }
        return marks
    }

    /// The legend of colours, then what was left out and what was deferred; and the last line's y.
    func legendLines(_ run: RunRecord, _ rows: PhaseRows) -> ([String], footer: Double) {
        var footer = rows.bottom + 36
        var legend: [String] = []
        var lx = Self.left
        for (name, kind) in [("pre-main", "pre"), ("cpu", "cpu"), ("io", "io"), ("decode", "decode"), ("draw", "draw")] {
            let color = kind == "pre" ? "#b7c2c9" : Self.colors[kind]!
            legend.append(
                #"<rect x="\#(f(lx))" y="\#(f(footer - 10))" width="12" height="12" rx="2" fill="\#(color)"/><text x="\#(f(lx + 16))" y="\#(f(footer))" class="legend">\#(name)</text>"#
            )
            lx += 24 + Double(name.count) * 7
        }
        legend.append(
            ##"<rect x="\##(f(lx))" y="\##(f(footer - 10))" width="12" height="12" rx="2" fill="none" stroke="#c62828" stroke-width="2.5"/><text x="\##(f(lx + 18))" y="\##(f(footer))" class="legend">critical path</text>"##
        )
        if rows.drawn < run.phases.count {
            footer += 20
            let drawnOfLanesDrawn = rows.lanes.prefix(rows.lanesDrawn).reduce(0) { $0 + $1.indices.count }
            let threadsLeft = rows.lanes.count - rows.lanesDrawn + (rows.drawn < drawnOfLanesDrawn ? 1 : 0)
            legend.append(
                #"<text x="\#(f(Self.left))" y="\#(f(footer))" class="legend">\#(run.phases.count - rows.drawn) more phases on \#(threadsLeft) threads not drawn (the timeline draws the first \#(Self.maximumRows); the JSON, CSV and Chrome trace hold them all)</text>"#
            )
        }
        if !run.deferred.isEmpty {
            footer += 20
            legend.append(
                #"<text x="\#(f(Self.left))" y="\#(f(footer))" class="legend">deferred (lazy, not run at launch): \#(escape(run.deferred.joined(separator: ", ")))</text>"#
            )
        }
        return (legend, footer)
    }

    /// `launchprof: default, run 3 (the median of 5 runs), total 1.23 s, emulating iphone-3gs`.
    func title(_ result: LaunchResult, _ run: RunRecord) -> String {
        var title = "launchprof: \(result.manifest.name), run \(run.index)"
        if result.runs.count > 1 { title += self.run == nil ? " (the median of \(result.runs.count) runs)" : " of \(result.runs.count)" }
        title += ", total \(Self.duration(run.total))"
        if let tier = result.configuration?.tier { title += ", emulating \(tier.name)" }
        return title
    }

    /// The SVG document around its parts.
    func document(title: String, subtitle: String, height: Double, axis: [String], body: [String], marks: [String], legend: [String]) -> String {
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(f(Self.width))" height="\(f(height))" viewBox="0 0 \(f(Self.width)) \(f(height))">
            <style>
              text { font-family: 'DejaVu Sans', Helvetica, Arial, sans-serif; fill: #1d2329; }
              .title { font-size: 16px; font-weight: bold; }
              .subtitle { font-size: 11px; fill: #5f6b75; }
              .lane { font-size: 12px; font-weight: bold; fill: #37474f; }
              .label { font-size: 11px; }
              .tick { font-size: 10px; fill: #5f6b75; }
              .legend { font-size: 11px; }
              .marklabel { font-size: 10px; fill: #c62828; }
              .grid { stroke: #e3e8ec; stroke-width: 1; }
              .mark { stroke: #c62828; stroke-width: 1; stroke-dasharray: 4 3; }
              .total { stroke: #1d2329; stroke-width: 1.5; }
            </style>
            <rect width="100%" height="100%" fill="#ffffff"/>
            <text x="\(f(Self.left))" y="24" class="title">\(escape(title))</text>
            <text x="\(f(Self.left))" y="42" class="subtitle">\(escape(subtitle))</text>
            \(axis.joined(separator: "\n"))
            \(body.joined(separator: "\n"))
            \(marks.joined(separator: "\n"))
            \(legend.joined(separator: "\n"))
            </svg>

            """
    }

    /// The most phase rows drawn (`docs/limits.md`); past them the timeline says how many phases and
    /// threads it left out.
    static let maximumRows = 5_000

    /// The run's phase indices by thread, threads in increasing order, phases in run order.
    static func lanes(_ phases: [PhaseRecord]) -> [(thread: Int, indices: [Int])] {
        var byThread: [Int: [Int]] = [:]
        for (i, phase) in phases.enumerated() { byThread[phase.thread, default: []].append(i) }
        return byThread.sorted { $0.key < $1.key }.map { (thread: $0.key, indices: $0.value) }
    }

    /// The most ticks drawn on the axis, whatever the span.
    static let maxTicks = 100

    /// The time axis span: the largest finite time among `times`, at least a microsecond (a
    /// result with no phases, or with times that are not finite, still draws).
    static func span(_ times: [Double]) -> Double {
        let largest = times.filter(\.isFinite).max() ?? 0
        return max(largest, 1e-6)
    }

    /// A round tick step giving about ten ticks over `span` seconds. Terminates for any span: a span
    /// that is not finite and positive gets a step of one second, and each search is bounded
    /// (1e-320…1e308 is covered by 640 steps of ten).
    static func tickStep(_ span: Double) -> Double {
        guard span.isFinite, span > 0 else { return 1 }
        let raw = span / 10
        guard raw.isNormal else { return span }
        var magnitude = 1.0
        for _ in 0..<400 where magnitude > raw { magnitude /= 10 }
        for _ in 0..<400 where magnitude * 10 <= raw && (magnitude * 10).isFinite { magnitude *= 10 }
        for factor in [1.0, 2.0, 5.0, 10.0] where magnitude * factor >= raw { return magnitude * factor }
        return magnitude * 10
    }

    /// A label's time in the unit that fits, as the text report prints it: `830 µs`, `12.3 ms`, `1.23 s`.
    static func duration(_ seconds: Double) -> String {
        DurationFormat.format(seconds)
    }

    /// A coordinate with one decimal; `0` for a value that is not finite (never `nan` or `inf` in SVG).
    func f(_ value: Double) -> String { value.isFinite ? SecondsFormat.format(value, precision: 1) : "0" }

    func escape(_ text: String) -> String { XMLText.escape(text) }
}
