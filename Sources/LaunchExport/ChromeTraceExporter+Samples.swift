import LaunchCore

extension ChromeTraceExporter {
    /// The thread id of the sample track of protocol thread `thread` (-1: the run's other threads and processes).
    static func sampleTrack(_ thread: Int) -> Int { thread >= 0 ? sampleTrackBase + thread : sampleTrackBase - 1 }
    /// Sample tracks are numbered from here, after every phase thread, so Perfetto lists them below the phases.
    static let sampleTrackBase = 100_000

    /// The events of a result's sampled run (``SampleProfiles/timeline``) when `run` is that run: per
    /// thread, a track `samples: main` whose slices (`"cat":"sample"`) are the samples, each lasting
    /// one sampling period (less when the track's next sample comes sooner), named after the function running, with its whole stack (root first) in `args`.
    func sampleEvents(_ result: LaunchResult, run: RunRecord) -> [String] {
        guard let samples = result.samples, let timeline = samples.timeline, timeline.run == run.index else { return [] }
        let pid = run.index
        let period = 1.0 / Double(max(1, samples.rate))
        var events: [String] = []
        var named: Set<Int> = []
        let valid = timeline.samples.filter { $0.count == 3 && $0.allSatisfy(\.isFinite) }
        // Each sample lasts a period, or up to the next sample of its track (slices never overlap).
        var next: [Double] = Array(repeating: .infinity, count: valid.count)
        var following: [Int: Double] = [:]
        for (i, sample) in valid.enumerated().reversed() {
            let tid = Self.sampleTrack(Int(exactly: sample[1]) ?? -1)
            next[i] = following[tid] ?? .infinity
            following[tid] = sample[0]
        }
        for (i, sample) in valid.enumerated() {
            let thread = Int(exactly: sample[1]) ?? -1
            let tid = Self.sampleTrack(thread)
            let duration = max(0, min(period, next[i] - sample[0]))
            if named.insert(tid).inserted {
                let name = thread < 0 ? "samples: other threads" : thread == 0 ? "samples: main" : "samples: thread \(thread)"
                events.append(#"{"name":"thread_name","ph":"M","pid":\#(pid),"tid":\#(tid),"args":{"name":\#(json(name))}}"#)
            }
            let frames = timeline.frames(of: Int(exactly: sample[2]) ?? -1)
            let leaf = frames.last ?? "[unknown]"
            events.append(
                #"{"name":\#(json(leaf)),"cat":"sample","ph":"X","ts":\#(micro(sample[0])),"dur":\#(micro(duration)),"pid":\#(pid),"tid":\#(tid),"args":{"stack":\#(json(frames.joined(separator: "\n")))}}"#
            )
        }
        return events
    }
}
