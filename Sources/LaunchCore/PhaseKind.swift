/// The kind of cost a phase spends, so a device tier can scale each kind by its own factor.
public enum PhaseKind: String, Codable, Sendable, CaseIterable {
    /// Computation on the CPU (parsing, layout).
    case cpu
    /// Reading or writing files.
    case io
    /// Image decoding.
    case decode
    /// Rasterizing pixels.
    case draw
}
