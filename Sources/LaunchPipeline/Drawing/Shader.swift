#if canImport(Glibc)
import Glibc
#endif
import LaunchImage

/// Evaluates a ``Paint`` at pixel centres of the rectangle it fills.
struct Shader {
    let solid: RGBA?
    let gradient: LinearGradient?
    let origin: (x: Double, y: Double)
    let direction: (x: Double, y: Double)
    let length: Double
    let lookup: [RGBA]
    /// Whether every row has one colour (a solid paint, or a gradient running vertically).
    let constantAlongRows: Bool

    init(paint: Paint, rect: Rect) {
        switch paint {
        case .solid(let color):
            solid = color
            gradient = nil
            origin = (0, 0)
            direction = (0, 0)
            length = 1
            lookup = []
            constantAlongRows = true
        case .linear(let g):
            solid = nil
            gradient = g
            let radians = g.angle * .pi / 180
            let dx = cos(radians), dy = sin(radians)
            direction = (abs(dx) < 1e-12 ? 0 : dx, abs(dy) < 1e-12 ? 0 : dy)
            // The gradient runs across the rectangle's extent along its direction.
            let extent = abs(direction.x) * rect.width + abs(direction.y) * rect.height
            length = max(extent, 1e-9)
            origin = (rect.x + rect.width / 2 - direction.x * extent / 2, rect.y + rect.height / 2 - direction.y * extent / 2)
            // The gradient's precomputed steps keep the inner loop free of stop searches.
            lookup = g.lookup
            // With no horizontal component, x contributes (x + 0.5 - origin.x) × 0 = 0 (when finite).
            constantAlongRows = direction.x == 0 && origin.x.isFinite
        }
    }

    @inline(__always)
    func color(_ x: Int, _ y: Int) -> RGBA {
        lookup.withUnsafeBufferPointer { color(x, y, $0) }
    }

    @inline(__always)
    func color(_ x: Int, _ y: Int, _ lookup: UnsafeBufferPointer<RGBA>) -> RGBA {
        if let solid { return solid }
        let t = ((Double(x) + 0.5 - origin.x) * direction.x + (Double(y) + 0.5 - origin.y) * direction.y) / length
        // NaN and the ends clamp to 0…1; +0.5 and truncation round as `.rounded()` for these non-negative values.
        let clamped = t > 0 ? (t < 1 ? t : 1) : 0
        return lookup[Int(clamped * 255 + 0.5)]
    }
}
