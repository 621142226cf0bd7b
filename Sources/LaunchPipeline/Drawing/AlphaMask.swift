/// A single-channel coverage mask, used for soft shadows: a shape rasterised to alpha, then blurred.
public struct AlphaMask: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public var values: [Float]

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        values = [Float](repeating: 0, count: width * height)
    }

    /// Adds the anti-aliased coverage of a rounded rectangle (pixel coordinates of the mask).
    ///
    /// As ``Canvas/fillRoundedRect(_:radius:paint:opacity:)``: the distance is computed from each
    /// end of a row inwards, up to the fully covered span, which is filled without it. With
    /// `repeater` (test only), the rows it says run again.
    public mutating func addRoundedRect(_ rect: Rect, radius: Double, repeater: RowRepeater? = nil) {
        let r = max(0, min(radius, min(rect.width, rect.height) / 2))
        let x0 = max(0, rect.x.rounded(.down).pixel - 1), x1 = min(width, rect.maxX.rounded(.up).pixel + 1)
        let y0 = max(0, rect.y.rounded(.down).pixel - 1), y1 = min(height, rect.maxY.rounded(.up).pixel + 1)
        guard x0 < x1, y0 < y1 else { return }
        let geometry = RoundedRectGeometry(rect, r)
        let w = width
        values.withUnsafeMutableBufferPointer { v in
            let base = v.baseAddress!
            @inline(__always) func add(_ i: Int, _ c: Double) {
                if c > 0 { base[i] = min(1, base[i] + Float(c)) }
            }
            for y in repeater.rows(y0..<y1) {
                let row = y * w
                let covered = geometry.walkEdges(x0, x1, geometry.rowTerm(y), inner: -0.5) { x, d in
                    add(row + x, Canvas.coverage(distance: d))
                }
                guard let covered else { continue }
                for x in covered { base[row + x] = min(1, base[row + x] + 1) }
            }
        }
    }

    /// Blurs the mask with three passes of a box filter of `radius` pixels (close to a Gaussian).
    /// With `repeater` (test only), each pass runs the rows it says again.
    public mutating func blur(radius: Int, repeater: RowRepeater? = nil) {
        guard radius > 0, width > 0, height > 0 else { return }
        let w = width, h = height
        let window = Float(2 * radius + 1)
        // The vertical passes run along rows (a running sum per column), so memory is read in order.
        var copy = [Float](repeating: 0, count: w * h)
        var sums = [Float](repeating: 0, count: w)
        values.withUnsafeMutableBufferPointer { v in
            copy.withUnsafeMutableBufferPointer { c in
                sums.withUnsafeMutableBufferPointer { s in
                    let v = v.baseAddress!, c = c.baseAddress!, s = s.baseAddress!
                    for _ in 0..<3 {
                        for l in repeater.rows(0..<h) { Self.horizontalPass(v + l * w, c, length: w, radius: radius, window: window) }
                        Self.verticalPass(v, c, s, width: w, height: h, radius: radius, window: window, repeater: repeater)
                    }
                }
            }
        }
    }

    /// One box pass along the `length` values at `line` (`scratch` holds a copy).
    @inline(__always)
    private static func horizontalPass(
        _ line: UnsafeMutablePointer<Float>, _ scratch: UnsafeMutablePointer<Float>,
        length: Int, radius: Int, window: Float
    ) {
        scratch.update(from: line, count: length)
        var sum: Float = 0
        for i in 0...min(radius, length - 1) { sum += scratch[i] }
        for i in 0..<length {
            line[i] = sum / window
            let outgoing = i - radius, incoming = i + radius + 1
            if outgoing >= 0 { sum -= scratch[outgoing] }
            if incoming < length { sum += scratch[incoming] }
        }
    }

    /// One box pass down every column at once: the same sums, in the same order, as a pass per column.
    @inline(__always)
    private static func verticalPass(
        _ v: UnsafeMutablePointer<Float>, _ copy: UnsafeMutablePointer<Float>, _ sums: UnsafeMutablePointer<Float>,
        width w: Int, height h: Int, radius: Int, window: Float, repeater: RowRepeater?
    ) {
        copy.update(from: v, count: w * h)
        sums.update(repeating: 0, count: w)
        for i in 0...min(radius, h - 1) {
            let row = copy + i * w
            for x in 0..<w { sums[x] += row[x] }
        }
        for i in repeater.rows(0..<h) {
            let out = v + i * w
            for x in 0..<w { out[x] = sums[x] / window }
            let outgoing = i - radius, incoming = i + radius + 1
            if outgoing >= 0 {
                let row = copy + outgoing * w
                for x in 0..<w { sums[x] -= row[x] }
            }
            if incoming < h {
                let row = copy + incoming * w
                for x in 0..<w { sums[x] += row[x] }
            }
        }
    }
}
