#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchImage
import LaunchManifest

/// What `snapshotFirst` presented as the first frame.
public enum FirstFrame: String, Sendable, Equatable {
    /// The snapshot saved when the app last entered the background.
    case snapshot
    /// The splash image: there was no snapshot (a first launch, `--fresh-install`).
    case splash
    /// The splash image: the snapshot was saved by another theme, manifest or screen.
    case splashForStaleSnapshot
}

/// The saved frame: the snapshot the app writes when it enters the background, tagged with the key
/// of the launch that drew it, and shown first at the next launch (`strategies.snapshotFirst`).
extension Pipeline {
    /// The PNG text keyword under which a snapshot carries its ``launchKey()``.
    public static let snapshotKeyword = "launchprof-launch-key"

    /// What a snapshot must have been drawn by to be shown: SHA-256 of the manifest's bytes, the
    /// theme's bytes and the screen. Another theme, manifest or screen makes a saved snapshot stale.
    public func launchKey() throws -> String {
        let theme = try FileIO.read(manifest.theme, limit: .theme)
        let s = manifest.screen
        return SHA256.hex(of: Array("\(manifest.sha256)\n\(SHA256.hex(of: theme))\n\(s.width)x\(s.height)@\(s.scale)\n".utf8))
    }

    /// Presents the saved snapshot, or the splash image when there is none or it is stale, before
    /// any real initialisation: the `first frame` mark.
    /// Returns the presented frame and the reading when it was presented.
    @discardableResult
    func presentSavedFrame() throws -> (Canvas, UInt64) {
        let s = manifest.screen
        var frame = Canvas(width: s.width * s.scale, height: s.height * s.scale, fill: RGBA(0, 0, 0))
        // Announced on the progress line, so that a launcher's timeout can name the step.
        onStageStart?(AppInterface.showingSnapshotPhase)
        let shown: FirstFrame = try recorder.phase(AppInterface.showingSnapshotPhase, kind: .decode) {
            var shown = FirstFrame.splash
            // A previous instance still closing holds the state: a relaunch waits here.
            var lock: StateLock?
            if let path = snapshotPath {
                onStageStart?(Self.stateLockWait)
                lock = try recorder.phase(Self.stateLockWait, kind: .io) { try StateLock.shared(snapshot: path) }
                onStageStart?(AppInterface.showingSnapshotPhase)
            }
            defer { withExtendedLifetime(lock) {} }
            if let path = snapshotPath, FileIO.exists(path) {
                let bytes = try FileIO.read(path, limit: .asset)
                if PNGTextChunk.text(of: Self.snapshotKeyword, in: bytes) == (try launchKey()) {
                    let image = try recorder.phase("decoding \(Self.fileName(path))", kind: .decode) { try decoder.decode(bytes, file: path) }
                    if image.width == frame.width && image.height == frame.height {
                        frame.blit(image, at: (0, 0))
                        return FirstFrame.snapshot
                    }
                }
                shown = .splashForStaleSnapshot
            }
            guard let splash = manifest.splash else { throw PipelineError.stage(.snapshotFirstWithoutSplash(manifest: manifest.path)) }
            let image = try recorder.phase("decoding \(Self.fileName(splash))", kind: .decode) {
                try decoder.decode(try FileIO.read(splash, limit: .asset), file: splash)
            }
            frame.drawImage(image, in: Rect(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height)))
            return shown
        }
        firstFrame = shown
        recorder.mark(AppInterface.firstFrameMark)
        let presented = MonotonicClock.nanoseconds()
        switch shown {
        case .snapshot: recorder.count("snapshot shown", 1)
        case .splash: recorder.count("splash shown", 1)
        case .splashForStaleSnapshot: recorder.count("stale snapshot ignored", 1)
        }
        return (frame, presented)
    }

    /// The background step, after the launch: renders the UI in the launch orientation, encodes it
    /// (tagged with the ``launchKey()``), writes it atomically, saves the app's state beside it and,
    /// with `releaseCachesOnBackground`, frees the decoded images and the framebuffer. Its phases
    /// come after a `background` line (``backgroundReading``), outside the launch total.
    public func enterBackground(state: [String: String] = [:]) throws {
        backgroundReading = MonotonicClock.nanoseconds()
        recorder.recordingAfterLaunch = true
        defer { recorder.recordingAfterLaunch = false }
        // What the OS charges a suspended app (dirty memory) and what it holds, before and after.
        func sampleMemory(_ when: String) {
            if let dirty = ProcessMemory.dirtyBytes() { recorder.count("dirty bytes \(when) background", dirty) }
            if let resident = ProcessMemory.residentBytes() { recorder.count("resident bytes \(when) background", resident) }
        }
        sampleMemory("before")
        defer { sampleMemory("after") }
        // Held until the step ends: a relaunch meanwhile waits for it.
        var lock: StateLock?
        if let path = snapshotPath {
            // Announced: a budget that runs out here was spent waiting, not in the last launch stage.
            onStageStart?(Self.stateLockWait)
            lock = try StateLock.exclusive(snapshot: path)
        }
        defer { withExtendedLifetime(lock) {} }
        try backgroundStep(AppPhase.enteringBackground, kind: .io) {
            if theme != nil, let orientation = manifest.orientations.first, layouts[orientation] != nil {
                guard let frame = try backgroundStep("rendering", kind: .draw, { try renderLaunchOrientation() }) else { return }
                let key = try launchKey()
                let bytes = try backgroundStep("encoding PNG", kind: .cpu) { () throws -> [UInt8] in
                    let png = try PNGEncoder().encode(frame.image)
                    guard let tagged = PNGTextChunk.inserting(keyword: Self.snapshotKeyword, text: key, into: png) else {
                        throw PipelineError.stage(.snapshotUntaggable)
                    }
                    return tagged
                }
                snapshotBytes = bytes
                if let snapshotPath {
                    try backgroundStep("writing file", kind: .io) { try FileIO.writeAtomically(bytes, to: snapshotPath) }
                }
            }
            if let snapshotPath {
                let text = state.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)\n" }.joined()
                try backgroundStep("saving state", kind: .io) { try FileIO.writeAtomically(Array(text.utf8), to: Self.statePath(snapshot: snapshotPath)) }
            }
            if let settings = savedSettings, let path = manifest.launchStages.first(where: { $0.run == .settings })?.file {
                // Written only when they changed: the same settings keep the same file (and bytes).
                try backgroundStep("saving settings", kind: .io) {
                    let bytes = settings.json
                    if (try? FileIO.read(path, limit: .settings)) != bytes { try FileIO.writeAtomically(bytes, to: path) }
                }
            }
            if manifest.strategies.releaseCachesOnBackground {
                backgroundStep("releasing caches", kind: .cpu) { releaseCaches() }
            }
            if let seconds = manifest.strategies.sendReportOnClose, let snapshotPath {
                // The analytics report on close: a file written, then the wait for a slow network.
                try backgroundStep("sending report", kind: .io) {
                    try FileIO.writeAtomically(Array("launch report: display=\(calculator.display)\n".utf8), to: snapshotPath + ".report")
                    var wait = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
                    var left = timespec()
                    while nanosleep(&wait, &left) != 0 && errno == EINTR { wait = left }
                }
            }
        }
    }

    /// The return to the foreground (`--resume`), timed as `returning to foreground`: with the
    /// framebuffer kept, the last frame is presented at once; after `releaseCachesOnBackground`, the
    /// saved snapshot is shown first, then the images are decoded again and the UI drawn again. The
    /// trade-off of releasing caches (less memory in the background, a slower return) is this
    /// phase's time against the background's dirty memory.
    public func enterForeground() throws {
        recorder.recordingAfterLaunch = true
        defer { recorder.recordingAfterLaunch = false }
        try backgroundStep(AppPhase.returningToForeground, kind: .draw) {
            if canvas != nil {
                backgroundStep("presenting the last frame", kind: .draw) {}
                return
            }
            if let path = snapshotPath, FileIO.exists(path) {
                try backgroundStep(AppInterface.showingSnapshotPhase, kind: .decode) {
                    _ = try decoder.decode(try FileIO.read(path, limit: .asset), file: path)
                }
            }
            try backgroundStep("loading images", kind: .decode) { try loadAssets() }
            canvas = try backgroundStep("drawing", kind: .draw) { try renderLaunchOrientation() }
        }
    }

    /// The phase (and progress step) of waiting for the state lock another instance holds.
    static let stateLockWait = "waiting for the state lock"

    /// A phase of the background step, announced on the progress line first (so the launcher can
    /// say which step the app was in when its background budget ran out).
    private func backgroundStep<T>(_ name: String, kind: PhaseKind, _ body: () throws -> T) rethrows -> T {
        onStageStart?(name)
        return try recorder.phase(name, kind: kind, body)
    }

    /// The UI in the launch orientation, drawn afresh with the calculator's display; `nil` before
    /// the theme and layout stages ran.
    func renderLaunchOrientation() throws -> Canvas? {
        guard let theme, let orientation = manifest.orientations.first, let layout = layouts[orientation] else { return nil }
        let s = manifest.screen
        var frame = Canvas(width: s.width * s.scale, height: s.height * s.scale, fill: RGBA(0, 0, 0))
        var renderer = makeRenderer(theme)
        renderer.drawWindow(on: &frame)
        try renderer.drawDisplay(layout, on: &frame)
        try renderer.drawKeys(layout, on: &frame)
        return frame
    }

    /// Where the app's state is saved: beside the snapshot, `<snapshot>.state`.
    public static func statePath(snapshot: String) -> String { Manifest.statePath(snapshot: snapshot) }
}
