import LaunchCore
import LaunchExport

/// The dashboard's `index.html`: the header, the selectors, the embedded data and the script that
/// draws the charts (``DashboardScript``). Every text from the history is escaped for where it goes:
/// HTML text (``XMLText``) or JSON inside `<script>` (``DashboardJSON``).
public enum DashboardPage {
    public static func html(_ data: DashboardData) -> String {
        let title = XMLText.escape(data.title)
        let summary = XMLText.escape(
            "\(data.commits.count) commit\(data.commits.count == 1 ? "" : "s"), \(data.groups.count) series group\(data.groups.count == 1 ? "" : "s") · \(data.source)"
        )
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="generator" content="launchprof history dashboard">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title>
            <link rel="icon" href="data:,">
            <link rel="stylesheet" href="dashboard.css">
            </head>
            <body>
            <header>
            <h1>\(title)</h1>
            <p id="summary">\(summary)</p>
            <form id="selectors">
            <label>Environment <select id="select-environment"></select></label>
            <label>Tier <select id="select-tier"></select></label>
            <label>Metric <select id="select-metric"></select></label>
            <label>Target <select id="select-target"></select></label>
            </form>
            <p class="hint">Hover a chart for a commit's value; click it (or a ▼ change point) for its diff against its parent.</p>
            </header>
            <main id="charts"></main>
            <aside id="diff" hidden></aside>
            <div id="tooltip" role="tooltip" hidden></div>
            <noscript>The dashboard draws its charts with JavaScript.</noscript>
            <script type="application/json" id="launchprof-data">\(DashboardJSON.encode(data))</script>
            <script src="dashboard.js"></script>
            </body>
            </html>

            """
    }
}
