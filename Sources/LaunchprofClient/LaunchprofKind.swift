extension Launchprof {
    /// What a phase spends its time on: the protocol's `<kind>` (no kind is `-`).
    public enum Kind: String, Sendable, CaseIterable {
        case cpu, io, decode, draw
    }
}
