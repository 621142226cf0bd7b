/// Screen orientation; a layout exists per orientation.
public enum Orientation: String, Codable, Sendable, CaseIterable {
    case portrait
    case landscape
}
