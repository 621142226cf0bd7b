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
    public let angle: Double
    /// Stops sorted by offset; at least one.
    public let stops: [Stop]
    /// The colours at ``lookupSteps`` evenly spaced positions, made once per gradient (a theme's
    /// gradients are made when it is read), so filling a shape only indexes them.
    let lookup: [RGBA]

    /// The positions ``lookup`` holds a colour for. ``Shader`` and ``Canvas`` index it by `t × 255`
    /// (a rounding trick masks the index to 9 bits): keep 256.
    static let lookupSteps = 256

    public init(angle: Double, stops: [Stop]) {
        self.angle = angle
        let sorted = stops.sorted { $0.offset < $1.offset }
        self.stops = sorted
        self.lookup = Self.lookupTable(sorted, count: Self.lookupSteps)
    }

    /// ``color(at:)`` at `count` evenly spaced positions from 0 to 1 (`count` ≥ 2): the same values,
    /// found by walking the stops once instead of searching them per position.
    func lookupTable(count: Int) -> [RGBA] { Self.lookupTable(stops, count: count) }

    private static func lookupTable(_ stops: [Stop], count: Int) -> [RGBA] {
        stops.withUnsafeBufferPointer { stops in
            [RGBA](unsafeUninitializedCapacity: count) { table, initialized in
                guard let first = stops.first, let last = stops.last else {
                    table.initialize(repeating: RGBA(0, 0, 0, 0))
                    initialized = count
                    return
                }
                var segment = 1
                for i in 0..<count {
                    let t = Double(i) / Double(count - 1)
                    let color: RGBA
                    if t <= first.offset {
                        color = first.color
                    } else if t >= last.offset {
                        color = last.color
                    } else {
                        // Positions grow, so the first stop at or after `t` only moves forwards.
                        while t > stops[segment].offset { segment += 1 }
                        color = Self.mix(stops[segment - 1], stops[segment], at: t)
                    }
                    (table.baseAddress! + i).initialize(to: color)
                }
                initialized = count
            }
        }
    }

    /// The colour at `t` between stops `a` and `b` (`a.offset` < `t` ≤ `b.offset`).
    @inline(__always)
    private static func mix(_ a: Stop, _ b: Stop, at t: Double) -> RGBA {
        let span = b.offset - a.offset
        let f = span > 0 ? (t - a.offset) / span : 1
        func mix(_ x: UInt8, _ y: UInt8) -> UInt8 { UInt8((Double(x) + (Double(y) - Double(x)) * f).rounded()) }
        return RGBA(mix(a.color.r, b.color.r), mix(a.color.g, b.color.g), mix(a.color.b, b.color.b), mix(a.color.a, b.color.a))
    }

    /// The colour at position `t` (clamped to 0…1).
    public func color(at t: Double) -> RGBA {
        guard let first = stops.first, let last = stops.last else { return RGBA(0, 0, 0, 0) }
        if t <= first.offset { return first.color }
        if t >= last.offset { return last.color }
        for i in 1..<stops.count where t <= stops[i].offset {
            return Self.mix(stops[i - 1], stops[i], at: t)
        }
        return last.color
    }
}
