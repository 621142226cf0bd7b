/// The dashboard's `dashboard.css`.
enum DashboardStyle {
    static let css = """
        body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d2330; background: #fafbfc; }
        header { padding: 12px 20px; background: #fff; border-bottom: 1px solid #dde1e6; }
        h1 { font-size: 20px; margin: 0 0 4px; }
        #summary, .hint { color: #5b6475; margin: 2px 0; }
        #selectors label { margin-right: 14px; }
        #selectors select { max-width: 22em; }
        main { padding: 8px 20px; }
        body.with-diff main { margin-right: 460px; }
        section.chart { background: #fff; border: 1px solid #dde1e6; border-radius: 4px; margin: 10px 0; padding: 6px 10px; }
        section.chart h2 { font-size: 14px; margin: 2px 0; font-weight: 600; }
        section.chart h2 .steps { color: #b3261e; font-weight: 400; margin-left: 8px; }
        svg.trend { width: 100%; height: auto; display: block; }
        svg.trend .line { fill: none; stroke: #3366cc; stroke-width: 1.2; }
        svg.trend .axis { stroke: #9aa3b2; stroke-width: 1; }
        svg.trend text { font-size: 11px; fill: #5b6475; }
        svg.trend .guide { stroke: #1d2330; stroke-width: 1; stroke-dasharray: 3 3; }
        svg.trend .change-point line { stroke: #b3261e; stroke-width: 1.5; }
        svg.trend .change-point path { fill: #b3261e; cursor: pointer; }
        svg.trend .selected { stroke: #e69500; stroke-width: 2; }
        svg.trend .overlay { fill: transparent; cursor: crosshair; }
        #tooltip { position: fixed; pointer-events: none; background: #1d2330; color: #fff; padding: 4px 8px; border-radius: 3px;
          font: 12px/1.35 ui-monospace, monospace; white-space: pre; z-index: 2; }
        #diff { position: fixed; top: 0; right: 0; bottom: 0; width: 440px; overflow: auto; background: #fff; border-left: 1px solid #dde1e6;
          padding: 10px 12px; box-sizing: border-box; }
        #diff h2 { font-size: 15px; margin: 4px 0; }
        #diff table { border-collapse: collapse; width: 100%; font: 12px/1.35 ui-monospace, monospace; }
        #diff th, #diff td { text-align: right; padding: 2px 4px; border-bottom: 1px solid #eef0f3; }
        #diff th:first-child, #diff td:first-child { text-align: left; word-break: break-word; }
        #diff tr.step td { background: #fdecea; font-weight: 600; }
        #diff .slower { color: #b3261e; } #diff .faster { color: #1e7b34; }
        #diff button { float: right; }

        """
}
