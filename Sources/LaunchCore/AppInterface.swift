/// What a launcher and the program it launches agree on, outside the line protocol's own lines:
/// the descriptor the protocol is written to and the environment variables that configure a run.
public enum AppInterface {
    /// The file descriptor the program writes the line protocol to (`docs/protocol.md`).
    public static let protocolDescriptor: Int32 = 3
    /// Carries the device emulation factors (`cpu=2,io=3,…`) to the built-in app.
    public static let emulationVariable = "LAUNCHPROF_EMULATION"
    /// `instructions` tells the built-in app to issue its Callgrind dumps (`--metric instructions`).
    public static let metricVariable = "LAUNCHPROF_METRIC"
    /// `0` tells the built-in app not to record system counters per phase (docs/counters.md; `make
    /// bench`'s counters case compares launches with and without them).
    public static let countersVariable = "LAUNCHPROF_COUNTERS"
    /// The mark sent when the first complete frame is presented.
    public static let firstFrameMark = "first frame"
    /// The mark sent when the app handles input.
    public static let interactiveMark = "interactive"
    /// Counters `unused at launch: <phase>`: a phase that ran at launch for something nothing used
    /// before interactive (`Why it is slow` suggests making it lazy).
    public static let unusedAtLaunchCounterPrefix = "unused at launch: "
    /// The counter the built-in app sends when `backgroundDecode` queues its PNG assets for worker
    /// threads (`Why it is slow` then advises on what still decodes on the main thread).
    public static let imagesQueuedForWorkersCounter = "images queued for workers"

    /// The phase of each tap applied after the launch (the `taps` line sums them up).
    public static let handlingTapPhase = "handling tap"

    /// The top-level phase that presents the saved snapshot (or the splash) as the first frame
    /// (`snapshotFirst`). Its decode is the first frame itself: `Why it is slow` judges it with the
    /// first-frame rule, not as decoding that could leave the main thread.
    public static let showingSnapshotPhase = "showing snapshot"

    /// The top-level phase of the launch animation (`strategies.preload`), on the main thread.
    public static let launchAnimationPhase = "launch animation"

    /// The top-level phase, on the preload's worker thread, that prepares the lazy stage `stage`
    /// (`strategies.preload`): after-launch work, outside the total.
    public static func preloadPhaseName(of stage: String) -> String { "preloading \(stage)" }
}
