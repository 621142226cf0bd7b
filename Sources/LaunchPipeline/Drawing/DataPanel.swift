import LaunchImage
import LaunchManifest

/// The panel that shows a data table, such as the unit-conversion panel: a header per group and a
/// row per item (its name on the left, its symbol on the right), laid out for the screen and drawn
/// with the theme's label font into an offscreen canvas the size of the screen. Every row is laid
/// out (the list scrolls); the rows on the first screen are drawn.
///
/// The label font need not have every character of the data: a character it lacks is shown as `?`
/// (or left out when the font has no `?` either) and counted in ``charactersSubstituted``.
public struct DataPanel: Sendable {
    /// One laid-out row; coordinates are pixels in the scrolling content.
    public struct Row: Equatable, Sendable {
        public var isHeader: Bool
        public var frame: Rect
        /// The text drawn on the left (the group's or the item's name), fitted to the row.
        public var title: String
        /// The text drawn on the right (the item's symbol), or empty.
        public var detail: String
        /// The text's top, placed so that its ink is centred in the row.
        public var textTop: Double
    }

    /// The panel's size in pixels: the screen's.
    public let width: Int, height: Int
    /// Pixels per point.
    public let scale: Double
    public private(set) var rows: [Row] = []
    /// Characters of the data the font has no glyph for (substituted or left out).
    public private(set) var charactersSubstituted = 0

    // Sizes in points.
    static let padding = 12.0
    static let rowHeight = 28.0
    static let headerHeight = 34.0
    static let textSize = 15.0
    static let headerTextSize = 17.0

    /// Lays `table` out for `screen` (portrait) with `font`, measuring each text and each
    /// character's ink (once per character, as a text system caches glyph metrics).
    public init(table: DataTable, font: GlyphFont, screen: Screen) {
        scale = Double(screen.scale)
        width = screen.width * screen.scale
        height = screen.height * screen.scale
        let padding = Self.padding * scale
        var text = PanelText(font: font)
        var y = 0.0
        var group: String?
        let contentWidth = Double(width) - 2 * padding
        for item in table.items {
            if item.group != group {
                group = item.group
                let size = Self.headerTextSize * scale
                let frame = Rect(x: 0, y: y, width: Double(width), height: Self.headerHeight * scale)
                let title = text.fitted(text.drawable(item.group), limit: contentWidth, size: size)
                rows.append(Row(isHeader: true, frame: frame, title: title, detail: "", textTop: text.top(of: title, size: size, in: frame)))
                y += frame.height
            }
            let size = Self.textSize * scale
            let frame = Rect(x: 0, y: y, width: Double(width), height: Self.rowHeight * scale)
            let detail = text.fitted(text.drawable(item.symbol), limit: contentWidth / 3, size: size)
            let title = text.fitted(text.drawable(item.name), limit: contentWidth - font.width(of: detail, height: size) - padding, size: size)
            rows.append(Row(isHeader: false, frame: frame, title: title, detail: detail, textTop: text.top(of: title + detail, size: size, in: frame)))
            y += frame.height
        }
        charactersSubstituted = text.substituted
    }

    /// What drawing the panel did.
    public struct Drawing: Sendable {
        public var canvas: Canvas
        public var rowsDrawn: Int
    }

    /// Draws the rows on the first screen into a new canvas the size of the screen: the window's
    /// background, a band per header, a stripe on every other row, a separator under each, and the
    /// texts in the theme's colours.
    public func draw(theme: Theme, font: GlyphFont) -> Drawing {
        var canvas = Canvas(width: width, height: height, fill: RGBA(0, 0, 0))
        canvas.fillRoundedRect(Rect(x: 0, y: 0, width: Double(width), height: Double(height)), radius: 0, paint: theme.window.background)
        let padding = Self.padding * scale
        let stripe = Paint.solid(RGBA(255, 255, 255, 14))
        let separator = Paint.solid(RGBA(255, 255, 255, 40))
        let detailColor = RGBA(theme.display.textColor.r, theme.display.textColor.g, theme.display.textColor.b, 170)
        var drawn = 0
        for (i, row) in rows.enumerated() {
            guard row.frame.y < Double(height) else { break }
            drawn += 1
            if row.isHeader {
                canvas.fillRoundedRect(row.frame, radius: 0, paint: theme.display.background)
                font.draw(row.title, x: padding, y: row.textTop, height: Self.headerTextSize * scale, color: theme.display.textColor, on: &canvas)
                continue
            }
            if i % 2 == 0 { canvas.fillRoundedRect(row.frame, radius: 0, paint: stripe) }
            canvas.fillRoundedRect(Rect(x: padding, y: row.frame.maxY - 1, width: row.frame.width - 2 * padding, height: 1), radius: 0, paint: separator)
            let size = Self.textSize * scale
            font.draw(row.title, x: padding, y: row.textTop, height: size, color: theme.display.textColor, on: &canvas)
            let detailWidth = font.width(of: row.detail, height: size)
            font.draw(row.detail, x: (row.frame.maxX - padding - detailWidth).rounded(), y: row.textTop, height: size, color: detailColor, on: &canvas)
        }
        return Drawing(canvas: canvas, rowsDrawn: drawn)
    }
}

/// The panel's text measured with its font: characters the font lacks substituted, texts cut to
/// fit, and each character's ink cached (once per character, as a text system caches glyph metrics).
struct PanelText {
    let font: GlyphFont
    private var ink: [Character: (top: Double, bottom: Double)?] = [:]
    private var known: [Character: Bool] = [:]
    private let substitute: Character?
    /// Characters the font has no glyph for, so far.
    private(set) var substituted = 0

    init(font: GlyphFont) {
        self.font = font
        substitute = font.missingCharacters(in: "?").isEmpty ? "?" : nil
    }

    /// `text` with the characters the font lacks substituted.
    mutating func drawable(_ text: String) -> String {
        var out = ""
        for c in text {
            let has =
                known[c]
                ?? {
                    let v = c == " " || font.missingCharacters(in: String(c)).isEmpty; known[c] = v; return v
                }()
            if has {
                out.append(c)
            } else {
                substituted += 1
                if let substitute { out.append(substitute) }
            }
        }
        return out
    }

    /// `text` cut (with `...` when the font has `.`) to at most `limit` pixels wide at `size`.
    func fitted(_ text: String, limit: Double, size: Double) -> String {
        guard font.width(of: text, height: size) > limit else { return text }
        let ellipsis = (known["."] ?? font.missingCharacters(in: ".").isEmpty) ? "..." : ""
        // Every glyph is one cell wide: the characters that fit, counted, not searched for.
        let glyph = font.width(of: "x", height: size)
        let room = glyph > 0 ? Int(((limit - font.width(of: ellipsis, height: size)) / glyph).rounded(.down)) : 0
        return String(text.prefix(max(0, room))) + ellipsis
    }

    /// The top of `text` so that its ink is centred in `frame`, from the characters' cached ink.
    mutating func top(of text: String, size: Double, in frame: Rect) -> Double {
        var top = Double.infinity, bottom = -Double.infinity
        for c in text {
            let box =
                ink[c]
                ?? {
                    let b = font.inkBounds(of: String(c), height: size).map { ($0.y, $0.maxY) }
                    ink[c] = b
                    return b
                }()
            if let box { top = min(top, box.top); bottom = max(bottom, box.bottom) }
        }
        let middle = top <= bottom ? (top + bottom) / 2 : size / 2
        return (frame.y + frame.height / 2 - middle).rounded()
    }
}
