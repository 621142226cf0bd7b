#if canImport(Glibc)
import Glibc
#endif
import LaunchImage

/// The loading dialog drawn over the first frame while a long init runs: a translucent gradient
/// rounded rectangle with a soft shadow and a border, a spinner of twelve spokes turning one step
/// per frame, and a message.
public struct LoadingDialog: Sendable {
    public var message: String
    /// Pixels per point.
    public var scale: Double
    /// The label font, when the dialog could load it (the message is not drawn without one).
    public var font: GlyphFont?

    public init(message: String, scale: Double, font: GlyphFont?) {
        self.message = message
        self.scale = scale
        self.font = font
    }

    /// Draws the dialog centred on `canvas`, its spinner at `step` (0…11).
    public func draw(on canvas: inout Canvas, step: Int) {
        let width = min(Double(canvas.width) - 32 * scale, 280 * scale), height = 96 * scale
        let box = Rect(x: ((Double(canvas.width) - width) / 2).rounded(), y: ((Double(canvas.height) - height) / 2).rounded(),
                       width: width.rounded(), height: height)
        let radius = 14 * scale
        // Shadow: the box's shape, blurred, offset down.
        let blur = Int((6 * scale).rounded()), pad = blur * 3
        var mask = AlphaMask(width: Int(box.width) + 2 * pad, height: Int(box.height) + 2 * pad)
        mask.addRoundedRect(Rect(x: Double(pad), y: Double(pad), width: box.width, height: box.height), radius: radius)
        mask.blur(radius: blur)
        canvas.fillMask(mask.values, maskWidth: mask.width, origin: (box.x.pixel - pad, box.y.pixel - pad + Int(4 * scale)),
                        color: RGBA(0, 0, 0, 110))
        let fill = LinearGradient(angle: 90, stops: [.init(offset: 0, color: RGBA(70, 74, 86, 220)), .init(offset: 1, color: RGBA(30, 32, 40, 230))])
        canvas.fillRoundedRect(box, radius: radius, paint: .linear(fill))
        canvas.strokeRoundedRect(box, radius: radius, lineWidth: max(1, scale), color: RGBA(255, 255, 255, 90))
        // Spinner: twelve spokes, the one at `step` brightest.
        let centre = (x: box.x + 36 * scale, y: box.y + box.height / 2)
        for spoke in 0..<12 {
            let angle = Double(spoke) * .pi / 6
            let age = (step - spoke + 12) % 12
            let alpha = UInt8(max(40, 255 - age * 18))
            let x = centre.x + cos(angle) * 12 * scale, y = centre.y + sin(angle) * 12 * scale
            canvas.fillRoundedRect(Rect(x: x - 2.5 * scale, y: y - 2.5 * scale, width: 5 * scale, height: 5 * scale), radius: 2.5 * scale,
                                   paint: .solid(RGBA(255, 255, 255, alpha)))
        }
        if let font {
            let textHeight = 16 * scale
            let available = box.maxX - 12 * scale - (centre.x + 24 * scale)
            var text = message
            while !text.isEmpty, font.width(of: text, height: textHeight) > available { text.removeLast() }
            font.draw(text, x: (centre.x + 24 * scale).rounded(), y: (centre.y - textHeight / 2).rounded(), height: textHeight,
                      color: RGBA(240, 240, 245), on: &canvas)
        }
    }
}
