import Foundation
import LaunchChangePoints
import LaunchCore
import LaunchDashboard
import LaunchHistory

/// `make bench`: `history dashboard` of 10,000 commits × (50 phases, the launch total, first frame,
/// peak memory) × 10 runs, a step planted in five series. Goal (issue 30): the page loads and draws
/// in ≤ 2 s in headless Chromium. The page stamps `data-drawn-ms` on its root element once every
/// chart is drawn and laid out (`performance.now()`: from navigation start); `chromium --dump-dom`
/// reads it back. Also timed: building and writing the site in process, and the whole Chromium process.
/// `launchprof-bench dashboard [COMMITS]` runs only this benchmark.
struct DashboardBenchmark {
    var commits = 10_000
    var phases = 50
    var loads = 5
    let helper = DiffScaleBenchmark()

    func report() {
        do { try run() } catch { print("dashboard: failed: \(error)") }
    }

    func run() throws {
        let candidates: [String] = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        guard let chromium = candidates.first(where: { access($0, X_OK) == 0 }) else {
            print("dashboard: skipped: Chromium is not installed (apt-get install chromium)")
            return
        }
        let directory = try FileIO.makeTemporaryDirectory(in: FileIO.temporaryDirectory, prefix: "launchprof-dashboard-bench-")
        defer { FileIO.removeTemporaryDirectory(directory) }
        let series = try makeSeries()
        let start = MonotonicClock.nanoseconds()
        let detected = try ChangePointDetector().detect(series)
        let detectedAt = MonotonicClock.nanoseconds()
        let order = (0..<commits).map { CommitInfo(hash: hash($0), parents: $0 > 0 ? [hash($0 - 1)] : []) }
        let data = try DashboardData(title: "bench", source: "synthetic", order: order, environments: ["e": "bench"], series: series, detected: detected)
        try DashboardWriter.write(data, to: directory + "/site")
        let written = MonotonicClock.nanoseconds()
        let size = FileIO.entries(of: directory + "/site").reduce(0) { $0 + fileSize(directory + "/site/" + $1) }
        let steps = detected.reduce(0) { $0 + $1.changePoints.count }
        print(
            "dashboard: \(commits) commits × \(series.count) series: detection \(format(Double(detectedAt - start) / 1e6)) ms, site built and written \(format(Double(written - detectedAt) / 1e6)) ms, \(size / 1000) kB, \(steps) change points"
        )
        var inPage: [Double] = [], process: [Double] = []
        for _ in 0..<loads {
            let (drawn, wall) = try load(chromium, "file://\(directory)/site/index.html", profile: directory + "/profile")
            inPage.append(drawn)
            process.append(wall)
        }
        inPage.sort()
        process.sort()
        let median = inPage[loads / 2]
        print(
            "dashboard: loads and draws in headless Chromium (navigation start to every chart laid out, median of \(loads))  \(format(median)) ms  (goal <= 2000 ms: \(median <= 2000 ? "met" : "missed"); whole Chromium process \(format(process[loads / 2])) ms; load average \(helper.loadAverage()))"
        )
    }

    /// One headless Chromium process: the page's own `data-drawn-ms`, and the process's wall time, in ms.
    func load(_ chromium: String, _ url: String, profile: String) throws -> (Double, Double) {
        let arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile)", "--window-size=1400,1000", "--dump-dom", url
        ]
        let spawner = HistoryConcurrencyBenchmark(), domPath = profile + ".dom.html"
        let start = MonotonicClock.nanoseconds()
        let status = spawner.wait(try spawner.start(chromium, arguments, in: "/", output: domPath))
        let wall = Double(MonotonicClock.nanoseconds() - start) / 1e6
        guard status == 0 else { throw CoreError.system(path: chromium, action: "load \(url)", reason: "exited \(status)") }
        let dom = try FileIO.readText(domPath, limit: 256 << 20)
        guard let range = dom.range(of: "data-drawn-ms=\""), let end = dom[range.upperBound...].firstIndex(of: "\""),
            let drawn = Double(dom[range.upperBound..<end])
        else { throw CoreError.system(path: url, action: "load", reason: "the page did not stamp data-drawn-ms (it did not draw)") }
        let charts = dom.components(separatedBy: "<section class=\"chart\"").count - 1
        guard charts == phases + 3 else { throw CoreError.system(path: url, action: "load", reason: "\(charts) charts drawn, not \(phases + 3)") }
        return (drawn, wall)
    }

    /// Every series of one group: 50 phases, the launch total, first frame, peak memory; 10 runs a
    /// commit with 3% noise; steps of +5% planted in five phases at commits 2,000 apart.
    func makeSeries() throws -> [ChangePointSeries] {
        var noise = DiffScaleBenchmark.Generator(seed: 30)
        let names = (0..<phases).map { "phase \($0)" } + [SeriesKey.totalPhase, "Time to first frame", SeriesKey.peakMemoryPhase]
        return try names.enumerated().map { p, name in
            let base = name == SeriesKey.peakMemoryPhase ? 15_000_000 : 0.0002 * Double(1 + p % 7)
            let points = try (0..<commits).map { c in
                let step = p < 5 && c >= 1_000 + 2_000 * p ? 1.05 : 1
                return try MeasuredPoint(commit: hash(c), measured: (0..<10).map { _ in base * step * (1 + 0.03 * (noise.unit() - 0.5)) })
            }
            return try ChangePointSeries(
                key: .init(environment: "e", tier: "host", metric: .time, target: SeriesTarget(kind: .manifest, name: "default"), phase: name), points: points)
        }
    }

    func hash(_ n: Int) -> String {
        let hex = String(n, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex + String(repeating: "d", count: 32)
    }

    func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}
