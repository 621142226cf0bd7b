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
        let box = Rect(
            x: ((Double(canvas.width) - width) / 2).rounded(), y: ((Double(canvas.height) - height) / 2).rounded(),
            width: width.rounded(), height: height)
        let radius = 14 * scale
        // Shadow: the box's shape, blurred, offset down.
        let blur = Int((6 * scale).rounded()), pad = blur * 3
        var mask = AlphaMask(width: Int(box.width) + 2 * pad, height: Int(box.height) + 2 * pad)
        mask.addRoundedRect(Rect(x: Double(pad), y: Double(pad), width: box.width, height: box.height), radius: radius)
        mask.blur(radius: blur)
        canvas.fillMask(
            mask.values, maskWidth: mask.width, origin: (box.x.pixel - pad, box.y.pixel - pad + Int(4 * scale)),
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
            canvas.fillRoundedRect(
                Rect(x: x - 2.5 * scale, y: y - 2.5 * scale, width: 5 * scale, height: 5 * scale), radius: 2.5 * scale,
                paint: .solid(RGBA(255, 255, 255, alpha)))
        }
        if let font {
            let textHeight = 16 * scale, lineHeight = 20 * scale
            let left = (centre.x + 24 * scale).rounded()
            let lines = Self.wrap(message, maxLines: 3) { font.width(of: $0, height: textHeight) <= box.maxX - 12 * scale - left }
            let top = centre.y - (Double(lines.count - 1) * lineHeight + textHeight) / 2
            for (i, line) in lines.enumerated() {
                font.draw(line, x: left, y: (top + Double(i) * lineHeight).rounded(), height: textHeight, color: RGBA(240, 240, 245), on: &canvas)
            }
        }
    }

    /// `text` broken at spaces into at most `maxLines` lines that `fits`; a word too long for a line
    /// is cut, and text past the last line ends in "...".
    static func wrap(_ text: String, maxLines: Int, fits: (String) -> Bool) -> [String] {
        var lines: [String] = [], current = ""
        var words = text.split(separator: " ").map(String.init)[...]
        while let word = words.first {
            let candidate = current.isEmpty ? word : current + " " + word
            if fits(candidate) {
                current = candidate
                words.removeFirst()
            } else if current.isEmpty {
                // A word wider than a line: as much of it as fits, the rest on the next line.
                var head = word
                while head.count > 1, !fits(head) { head.removeLast() }
                lines.append(head)
                words[words.startIndex] = String(word.dropFirst(head.count))
            } else {
                lines.append(current)
                current = ""
            }
            if lines.count == maxLines { break }
        }
        if !current.isEmpty, lines.count < maxLines { lines.append(current) }
        if !words.isEmpty, var last = lines.popLast() {
            while !last.isEmpty, !fits(last + "...") { last.removeLast() }
            lines.append(last + "...")
        }
        return lines
    }
}
