/// `strategies.preload`: a lazy `data` stage prepared, hidden from the user, on a worker thread
/// while something else keeps the user's eyes busy (../shared/seeds/004: the keyboard loaded under
/// a hidden text field while the paper slides in). Its first use then only takes what is ready.
public struct PreloadSpec: Equatable, Sendable {
    /// What the preload hides under.
    public enum Moment: String, Equatable, Sendable, CaseIterable {
        /// The keys slide in after the first frame (0.4 s, 24 frames at 60 frames a second).
        case launchAnimation = "launch animation"
    }

    /// The name of the lazy data stage to preload.
    public var stage: String
    /// What it hides under; only ``Moment/launchAnimation`` for now.
    public var during: Moment

    public init(stage: String, during: Moment = .launchAnimation) {
        self.stage = stage
        self.during = during
    }
}
