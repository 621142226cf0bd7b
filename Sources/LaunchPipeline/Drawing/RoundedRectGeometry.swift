/// The signed distance to a rounded rectangle's edge, evaluated as the rasterizer walks a row.
extension Canvas {
    /// Signed distance from the centre of pixel (x, y) to a rounded rectangle's edge (negative inside).
    @inline(__always)
    static func roundedRectDistance(_ x: Int, _ y: Int, _ rect: Rect, _ radius: Double) -> Double {
        let px = Double(x) + 0.5 - (rect.x + rect.width / 2)
        let py = Double(y) + 0.5 - (rect.y + rect.height / 2)
        let qx = abs(px) - (rect.width / 2 - radius)
        let qy = abs(py) - (rect.height / 2 - radius)
        let ox = max(qx, 0), oy = max(qy, 0)
        return (ox * ox + oy * oy).squareRoot() + min(max(qx, qy), 0) - radius
    }
}

/// ``Canvas/roundedRectDistance(_:_:_:_:)`` with its per-rectangle and per-row terms computed once
/// (the same arithmetic, so the same values).
struct RoundedRectGeometry {
    let centreX: Double, centreY: Double, halfInnerX: Double, halfInnerY: Double, radius: Double

    @inline(__always)
    init(_ rect: Rect, _ radius: Double) {
        centreX = rect.x + rect.width / 2
        centreY = rect.y + rect.height / 2
        halfInnerX = rect.width / 2 - radius
        halfInnerY = rect.height / 2 - radius
        self.radius = radius
    }

    /// `qy` of row `y`.
    @inline(__always)
    func rowTerm(_ y: Int) -> Double {
        abs(Double(y) + 0.5 - centreY) - halfInnerY
    }

    @inline(__always)
    func distance(_ x: Int, _ qy: Double) -> Double {
        let qx = abs(Double(x) + 0.5 - centreX) - halfInnerX
        let ox = max(qx, 0)
        // Beside the straight sides (no corner on this row) the root of ox² is ox: no square root.
        if qy <= 0 { return ox + min(max(qx, qy), 0) - radius }
        let oy = max(qy, 0)
        return (ox * ox + oy * oy).squareRoot() + min(max(qx, qy), 0) - radius
    }

    /// Visits the pixels `x0..<x1` of the row whose ``rowTerm(_:)`` is `qy` from each end inwards,
    /// calling `edge(x, distance)` for each, up to the first from either end whose distance is at
    /// most `inner` (past the edge's reach). The distance is convex along a row, so what is left is
    /// one span of columns: returned, or `nil` when the two ends met.
    @inline(__always)
    func walkEdges(_ x0: Int, _ x1: Int, _ qy: Double, inner: Double, _ edge: (_ x: Int, _ distance: Double) -> Void) -> ClosedRange<Int>? {
        var left = x0
        while left < x1 {
            let d = distance(left, qy)
            if d <= inner { break }
            edge(left, d)
            left += 1
        }
        guard left < x1 else { return nil }
        var right = x1 - 1
        while right > left {
            let d = distance(right, qy)
            if d <= inner { break }
            edge(right, d)
            right -= 1
        }
        return left...right
    }
}
