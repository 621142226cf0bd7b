extension Double {
    /// A pixel coordinate as an `Int`, clamped so that no value (huge, infinite or NaN) can trap.
    var pixel: Int {
        guard !isNaN else { return 0 }
        return Int(Swift.max(-1e9, Swift.min(1e9, self)))
    }
}

/// A rectangle in points (layout) or pixels (drawing), origin at the top left.
public struct Rect: Equatable, Sendable, CustomStringConvertible {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// The rectangle grown by `d` on every side (shrunk when negative).
    public func outset(by d: Double) -> Rect {
        Rect(x: x - d, y: y - d, width: width + 2 * d, height: height + 2 * d)
    }

    /// The rectangle with every coordinate multiplied by `factor` (points to pixels).
    public func scaled(by factor: Double) -> Rect {
        Rect(x: x * factor, y: y * factor, width: width * factor, height: height * factor)
    }

    /// The rectangle with its edges rounded to whole numbers (pixel-aligned).
    public var integral: Rect {
        let x0 = x.rounded(), y0 = y.rounded()
        return Rect(x: x0, y: y0, width: (x + width).rounded() - x0, height: (y + height).rounded() - y0)
    }

    public var description: String { "(\(x.compact), \(y.compact), \(width.compact)×\(height.compact))" }
}
