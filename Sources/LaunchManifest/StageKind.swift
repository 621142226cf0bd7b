import LaunchCore

/// The work a stage does.
public enum StageKind: String, Sendable, CaseIterable {
    /// Allocates the framebuffer and the image cache.
    case initialize = "init"
    /// Reads and parses the theme XML.
    case theme
    /// Computes view frames for the requested orientations.
    case layout
    /// Decodes every PNG the theme uses (one sub-phase per image).
    case images
    /// Rasterizes the UI of the launch orientation.
    case draw
    /// Parses a data XML file (unit conversions, constants…), usually lazily.
    case data
    /// Applies the user's saved settings (`settings.json`) to the views, one setter each.
    case settings

    /// The kind of cost, for device tiers.
    public var cost: PhaseKind {
        switch self {
        case .initialize, .layout, .data, .settings: return .cpu
        case .theme: return .io
        case .images: return .decode
        case .draw: return .draw
        }
    }

    /// Stages that must have run before this one.
    public var requires: [StageKind] {
        switch self {
        case .initialize, .theme, .data: return []
        case .layout: return [.theme]
        case .images: return [.initialize, .theme]
        case .draw: return [.layout, .images]
        case .settings: return [.layout, .images]
        }
    }
}
