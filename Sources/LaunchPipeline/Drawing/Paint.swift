import LaunchImage

/// How a shape is filled: one colour or a linear gradient across the shape's bounds.
public enum Paint: Equatable, Sendable {
    case solid(RGBA)
    case linear(LinearGradient)
}

/// A linear gradient: colour stops along a direction through the filled rectangle.
public struct LinearGradient: Equatable, Sendable {
    /// A colour at a position 0…1 along the gradient.
    public struct Stop: Equatable, Sendable {
        public var offset: Double
        public var color: RGBA

        public init(offset: Double, color: RGBA) {
            self.offset = offset
            self.color = color
        }
    }

    /// Direction in degrees: 0 runs left to right, 90 top to bottom.
    public var angle: Double
    /// Stops sorted by offset; at least one.
    public var stops: [Stop]

    public init(angle: Double, stops: [Stop]) {
        self.angle = angle
        self.stops = stops.sorted { $0.offset < $1.offset }
    }

    /// The colour at position `t` (clamped to 0…1).
    public func color(at t: Double) -> RGBA {
        guard let first = stops.first, let last = stops.last else { return RGBA(0, 0, 0, 0) }
        if t <= first.offset { return first.color }
        if t >= last.offset { return last.color }
        for i in 1..<stops.count where t <= stops[i].offset {
            let a = stops[i - 1], b = stops[i]
            let span = b.offset - a.offset
            let f = span > 0 ? (t - a.offset) / span : 1
            func mix(_ x: UInt8, _ y: UInt8) -> UInt8 { UInt8((Double(x) + (Double(y) - Double(x)) * f).rounded()) }
            return RGBA(mix(a.color.r, b.color.r), mix(a.color.g, b.color.g), mix(a.color.b, b.color.b), mix(a.color.a, b.color.a))
        }
        return last.color
    }
}
