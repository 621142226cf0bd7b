import LaunchImage
import LaunchManifest

/// A parsed theme: the colours, gradients, fonts, images, styles and layouts of the calculator UI.
/// The XML schema is documented in `docs/theme.md`.
public struct Theme: Sendable {
    /// The file the theme was read from, for messages.
    public var file: String = ""
    public var name: String
    public var colors: [String: RGBA]
    public var gradients: [String: LinearGradient]
    public var fonts: [String: FontSpec]
    public var images: [String: ImageSpec]
    public var window: WindowStyle
    public var display: DisplayStyle
    public var keyStyles: [String: KeyStyle]
    public var layouts: [Orientation: LayoutSpec]
    /// The loading dialog's messages (`<loading-messages>`); one is picked at random.
    public var loadingMessages: [String] = []
}

/// A monospaced bitmap font: a PNG glyph atlas with one cell per character, row-major.
public struct FontSpec: Equatable, Sendable {
    public var name: String
    /// Atlas file name inside the asset directory.
    public var atlas: String
    public var columns: Int
    /// The characters of the atlas cells, in order.
    public var characters: [Character]
    /// Default glyph height in points.
    public var size: Double

    /// The characters of an atlas that does not list its own: printable ASCII, then `×÷±−√∛π²³ʸˣ⁻¹`.
    public static let defaultCharacters: [Character] =
        (32..<127).map { Character(Unicode.Scalar(UInt8($0))) } + Array("×÷±−√∛π²³ʸˣ⁻¹")
}

/// A PNG image the theme refers to by name.
public struct ImageSpec: Equatable, Sendable {
    public var name: String
    /// File name inside the asset directory (an `@2x` variant is preferred at scale 2).
    public var source: String
}

/// The window behind everything.
public struct WindowStyle: Equatable, Sendable {
    public var background: Paint
    /// Image name of a texture stretched over the background, if any.
    public var texture: String?
    public var textureOpacity: Double
}

/// The calculator's display at the top.
public struct DisplayStyle: Equatable, Sendable {
    public var background: Paint
    public var border: RGBA?
    public var borderWidth: Double
    public var cornerRadius: Double
    public var font: String
    public var textColor: RGBA
    /// The text shown at launch.
    public var text: String
    /// Inner padding, points.
    public var padding: Double
    /// Text height in points (the font's size when absent).
    public var textSize: Double?
    /// Where the `<display>` element stands in the theme file (0 when not read from one).
    public var sourceLine = 0, sourceColumn = 0
}

/// How one kind of key looks.
public struct KeyStyle: Equatable, Sendable {
    /// The largest shadow offset on either axis, in points.
    public static let maximumShadowOffset = 64.0
    /// The largest shadow blur radius, in points.
    public static let maximumShadowBlur = 32.0

    public var name: String
    public var background: Paint
    public var border: RGBA?
    public var borderWidth: Double
    public var cornerRadius: Double
    public var shadow: RGBA?
    public var shadowOffset: (x: Double, y: Double)
    public var shadowBlur: Double
    public var font: String
    public var labelColor: RGBA
    /// Label height in points (the font's size when absent).
    public var labelSize: Double?

    public static func == (a: KeyStyle, b: KeyStyle) -> Bool {
        a.name == b.name && a.background == b.background && a.border == b.border && a.borderWidth == b.borderWidth
            && a.cornerRadius == b.cornerRadius && a.shadow == b.shadow && a.shadowOffset == b.shadowOffset
            && a.shadowBlur == b.shadowBlur && a.font == b.font && a.labelColor == b.labelColor && a.labelSize == b.labelSize
    }
}

/// Edge insets in points.
public struct EdgeInsets: Equatable, Sendable {
    public var top: Double, right: Double, bottom: Double, left: Double

    public static let zero = EdgeInsets(top: 0, right: 0, bottom: 0, left: 0)
}

/// The layout description of one orientation: a display above a grid of keys.
public struct LayoutSpec: Equatable, Sendable {
    public var orientation: Orientation
    public var rows: Int
    public var columns: Int
    /// Safe-area insets of the screen (status bar, home indicator).
    public var insets: EdgeInsets
    /// Margin inside the safe area around the display and the grid.
    public var margin: Double
    /// Gap between keys.
    public var spacing: Double
    /// Minimum display height; the display takes any height the keys leave over.
    public var displayHeight: Double
    /// Gap between the display and the grid.
    public var displaySpacing: Double
    public var minKeyWidth: Double
    public var maxKeyWidth: Double
    public var minKeyHeight: Double
    public var maxKeyHeight: Double
    /// When `true`, every key cell is square (width = height = the smaller of the two).
    public var equalSize: Bool
    public var keys: [KeySpec]
    /// Where the `<layout>` element stands in the theme file (0 when not read from one).
    public var sourceLine = 0, sourceColumn = 0
}

/// One key of a layout.
public struct KeySpec: Equatable, Sendable {
    public var label: String?
    /// Image name of an icon drawn instead of a label.
    public var icon: String?
    public var style: String
    public var row: Int
    public var column: Int
    public var rowSpan: Int
    public var columnSpan: Int
    /// Where the `<key>` element stands in the theme file (0 when not read from one).
    public var sourceLine = 0, sourceColumn = 0
}
