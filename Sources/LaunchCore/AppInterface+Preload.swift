extension AppInterface {
    /// The top-level phase of the launch animation (`strategies.preload`), on the main thread.
    public static let launchAnimationPhase = "launch animation"

    /// The top-level phase, on the preload's worker thread, that prepares the lazy stage `stage`
    /// (`strategies.preload`): after-launch work, outside the total.
    public static func preloadPhaseName(of stage: String) -> String { "preloading \(stage)" }
}
