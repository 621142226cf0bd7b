import LaunchCore
import LaunchManifest

/// `strategies.preload` (../shared/seeds/004): the launch animation on the main thread while a
/// worker thread prepares a lazy data stage's panel, hidden from the user; and the first use of a
/// lazy data stage, which takes the preloaded panel or prepares it itself.
extension Pipeline {
    /// What the preload keeps between the launch and the first use.
    final class PreloadState {
        var thread: PreloadThread?
        /// The drawn panel of each lazy data stage used so far.
        var panels: [String: Canvas] = [:]
    }

    /// The preload worker's thread number in the report: the first after the main thread's and the
    /// decode workers' (`backgroundDecode`), so that no two threads share one.
    var preloadThreadNumber: Int { 1 + (workerRecorders.map(\.thread).max() ?? 0) }

    /// The drawn panel of the lazy data stage `name`, once used.
    public func panel(_ name: String) -> Canvas? { preloadState.panels[name] }

    /// With `strategies.preload`, after the launch stages: plays the launch animation (the phase
    /// `launch animation`, on the main thread, part of the launch) while the worker preloads the
    /// stage. Counting instructions, the two are not run at once, so the counts repeat: the
    /// animation first, unpaced, then the worker, started and joined at once, after the last
    /// launch phase (so, as when timed, its work is outside the launch total).
    func playLaunchAnimationAndPreload() throws {
        guard let spec = manifest.strategies.preload, let stage = manifest.lazyStages.first(where: { $0.name == spec.stage }) else { return }
        guard let theme, let orientation = manifest.orientations.first, let layout = layouts[orientation], var canvas else {
            throw PipelineError.stage(.stagesMissing(step: "launch animation", needs: ["init", "layout", "draw"]))
        }
        let font = PreparedPanel.font(in: fonts), screen = manifest.screen
        let worker = PreloadThread(thread: preloadThreadNumber, like: recorder) { recorder in
            try recorder.phase(AppInterface.preloadPhaseName(of: stage.name), kind: .cpu) {
                try PreparedPanel.prepare(stage, theme: theme, font: font, screen: screen, recorder: recorder)
            }
        }
        preloadState.thread = worker
        let paced = !recorder.countsInstructions
        if paced { worker.start() }
        var animation = LaunchAnimation(renderer: makeRenderer(theme), layout: layout, screen: screen)
        let outcome = try recorder.phase(AppInterface.launchAnimationPhase, kind: .draw) { try animation.play(recorder: recorder, paced: paced) }
        canvas = outcome.canvas
        self.canvas = canvas
        recorder.count("animation frames drawn", outcome.framesDrawn)
        if let late = outcome.framesLate { recorder.count("animation frames late", late) }
        recorder.count("animation pixels drawn", outcome.pixelsDrawn)
        if !paced {
            worker.start()
            _ = try? worker.join()
        }
    }

    /// The first use of the lazy stage `stage`, inside its phase: a data stage takes its preloaded
    /// panel (waiting for the worker only while it still runs: the phase `waiting for the preload`),
    /// or parses its file and lays out and draws its panel. Counts `first use preloaded`.
    func firstUse(_ stage: StageSpec) throws {
        guard stage.run == .data else { return try run(stage) }
        let prepared: PreparedPanel
        if manifest.strategies.preload?.stage == stage.name, let worker = preloadState.thread {
            if worker.isFinished {
                prepared = try worker.join()
            } else {
                prepared = try recorder.waiting("waiting for the preload") { try worker.join() }
            }
            recorder.count("first use preloaded", 1)
        } else {
            prepared = try PreparedPanel.prepare(stage, theme: theme, font: PreparedPanel.font(in: fonts), screen: manifest.screen, recorder: recorder)
        }
        dataTables[stage.name] = prepared.table
        if let canvas = prepared.canvas { preloadState.panels[stage.name] = canvas }
    }

    /// Waits for the preload worker, if any, and returns its recorder, to report with the main
    /// thread's (`ProtocolWriter.report(recorders:)`, `RunRecord(clock:recorders:)`). Repeatable.
    public func finishPreload() -> [PhaseRecorder] {
        guard let worker = preloadState.thread else { return [] }
        if let spec = manifest.strategies.preload, dataTables[spec.stage] == nil, let prepared = try? worker.join() {
            dataTables[spec.stage] = prepared.table
            if let canvas = prepared.canvas { preloadState.panels[spec.stage] = canvas }
        }
        _ = try? worker.join()
        return [worker.recorder]
    }
}
