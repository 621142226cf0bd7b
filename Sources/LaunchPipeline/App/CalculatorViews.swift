import LaunchManifest

/// The calculator's views as the user's settings shape them: the key grid of each orientation
/// (labels relabelled for the saved mode, each label's size fitted to its key), the display's
/// indicators, the title and subtitle. Settings reach it through setters, as in the story of
/// ../shared/seeds/001: without `coalescedLayout` every setter lays the views out at once (the
/// `layoutIfNeeded` habit); with it, a setter stores the future value and schedules one update for
/// the next turn of the main run loop, cancelling the one already scheduled (`setNeedsUpdate`).
final class CalculatorViews {
    private let specs: [Orientation: LayoutSpec]
    private let theme: Theme
    private let screen: Screen
    private let font: GlyphFont?
    private let coalesced: Bool
    /// The settings the views show, and those a scheduled update will show.
    private(set) var settings = Settings()
    private var future: Settings?
    private(set) var layouts: [Orientation: BuiltLayout]
    /// Each key's fitted label height in points, per orientation (0 for an icon).
    private(set) var labelHeights: [Orientation: [Double]] = [:]
    private(set) var indicatorWidths: [Double] = []
    /// The inked height of each key label in the last pass, in points.
    private(set) var inkHeights: [Double] = []
    private(set) var layoutPasses = 0
    private(set) var updatesCancelled = 0

    init(theme: Theme, layouts: [Orientation: BuiltLayout], screen: Screen, font: GlyphFont?, coalesced: Bool) {
        self.theme = theme
        self.specs = theme.layouts
        self.layouts = layouts
        self.screen = screen
        self.font = font
        self.coalesced = coalesced
    }

    /// A setter: applies `change` now (a layout pass of every orientation) or schedules the update.
    func set(_ change: Settings.Change) throws(PipelineError) {
        if coalesced {
            future = (future ?? settings).applying(change)
            if scheduled { updatesCancelled += 1 }  // The update already scheduled is cancelled, one is scheduled.
            scheduled = true
        } else {
            settings = settings.applying(change)
            try layoutIfNeeded()
        }
    }

    private var scheduled = false

    /// The main run loop's turn: the scheduled update, if any, in one layout pass per orientation.
    func runLoopTurn() throws(PipelineError) {
        guard scheduled, let future else { return }
        settings = future
        self.future = nil
        scheduled = false
        try layoutIfNeeded()
    }

    /// Lays out every orientation from its spec: frames, labels for the saved mode, each label's
    /// height fitted to its key (shrunk in half-point steps, as text that adjusts to fit) and its
    /// ink measured, the display's indicators, title and subtitle measured.
    private func layoutIfNeeded() throws(PipelineError) {
        inkHeights.removeAll(keepingCapacity: true)
        for (orientation, var built) in layouts.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard let spec = specs[orientation] else { continue }
            do throws(PipelineError) {
                let fresh = try LayoutEngine.build(spec, portraitWidth: Double(screen.width), portraitHeight: Double(screen.height))
                built = fresh
            } catch {
                guard case .layout(let orientation, let reason) = error else { throw error }
                throw .stage(.relayout(theme: theme.file, orientation: orientation, reason: reason))
            }
            var heights: [Double] = []
            heights.reserveCapacity(built.keys.count)
            for i in built.keys.indices {
                if let label = built.keys[i].spec.label, let relabelled = settings.keyLabels[label] { built.keys[i].spec.label = relabelled }
                guard let label = built.keys[i].spec.label, let font else { heights.append(0); continue }
                let style = theme.keyStyles[built.keys[i].spec.style]
                var height = min(style?.labelSize ?? font.spec.size, built.keys[i].frame.height)
                let room = built.keys[i].frame.width - 8
                while height > 6, font.width(of: label, height: height) > room { height -= 0.5 }
                // The label's ink, for optical centring: measured from its glyphs' pixels.
                inkHeights.append(font.inkBounds(of: label, height: height)?.height ?? 0)
                heights.append(height)
            }
            labelHeights[orientation] = heights
            layouts[orientation] = built
            layoutPasses += 1
        }
        var indicators = [
            settings.angleMode.rawValue.uppercased(), settings.displayMode == .standard ? "" : String(settings.displayMode.rawValue.prefix(3)).uppercased()
        ]
        if settings.memoryIndicator { indicators.append("M") }
        indicators += [settings.title, settings.subtitle]
        indicatorWidths = indicators.map { text in font.map { $0.width(of: text, height: 12) } ?? 0 }
    }
}
