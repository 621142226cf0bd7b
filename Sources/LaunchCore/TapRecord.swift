/// The taps delivered to one run (`launchprof run --tap SECONDS:KEY`) and what became of them.
public struct TapRecord: Codable, Equatable, Sendable {
    /// Taps the launcher delivered on the control channel.
    public var delivered: Int
    /// Taps that changed nothing: made before the app was interactive without
    /// `queueInputDuringLaunch`, or never answered.
    public var lost: Int
    /// Seconds from each applied tap's delivery to the end of the frame that shows its effect, in
    /// delivery order.
    public var latencies: [Double]

    public init(delivered: Int, lost: Int, latencies: [Double]) {
        self.delivered = delivered
        self.lost = lost
        self.latencies = latencies
    }
}
