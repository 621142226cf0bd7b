import LaunchCore
import LaunchManifest

/// What the first use of a lazy data stage needs: its table, parsed, and its panel (``DataPanel``),
/// laid out and drawn. Prepared on the main thread by the first use, or on a worker thread ahead of
/// it by a preload (`strategies.preload`); the work and the phases are the same either way.
struct PreparedPanel: Sendable {
    var table: DataTable
    /// The drawn panel; `nil` when no theme or font was loaded to draw it with.
    var canvas: Canvas?

    /// Parses `stage`'s file, then (when `theme` and `font` are there) lays its panel out and draws
    /// it, each a phase on `recorder`, and counts what it did.
    static func prepare(_ stage: StageSpec, theme: Theme?, font: GlyphFont?, screen: Screen, recorder: PhaseRecorder) throws -> PreparedPanel {
        guard let file = stage.file else { throw PipelineError.stage(.dataStageWithoutFile(stage: stage.name)) }
        let table = try recorder.phase("parsing \(Pipeline.fileName(file))", kind: .cpu) { try DataTable.load(path: file) }
        recorder.count("data items loaded", table.items.count)
        guard let theme, let font else { return PreparedPanel(table: table, canvas: nil) }
        let panel = recorder.phase("laying out the panel", kind: .cpu) { DataPanel(table: table, font: font, screen: screen) }
        let drawing = recorder.phase("drawing the panel", kind: .draw) { panel.draw(theme: theme, font: font) }
        recorder.count("panel rows laid out", panel.rows.count)
        recorder.count("panel rows drawn", drawing.rowsDrawn)
        recorder.count("panel pixels drawn", drawing.canvas.pixelsDrawn)
        if panel.charactersSubstituted > 0 { recorder.count("panel characters substituted", panel.charactersSubstituted) }
        return PreparedPanel(table: table, canvas: drawing.canvas)
    }

    /// The font a panel is drawn with: the theme's `label` font, else the first by name.
    static func font(in fonts: [String: GlyphFont]) -> GlyphFont? {
        fonts["label"] ?? fonts.sorted { $0.key < $1.key }.first?.value
    }
}
