#if canImport(Glibc)
import Glibc
#endif
import LaunchImage

/// A software rasterizer drawing into an RGBA8 framebuffer with anti-aliased edges and
/// src-over compositing (straight alpha). Coordinates are pixels; pixel (x, y) covers
/// the square from (x, y) to (x + 1, y + 1).
///
/// ```swift
/// var canvas = Canvas(width: 320, height: 480, fill: RGBA(0, 0, 0))
/// canvas.fillRoundedRect(Rect(x: 10, y: 10, width: 100, height: 40), radius: 8, paint: .solid(RGBA(255, 160, 0)))
/// canvas.drawImage(icon, in: Rect(x: 20, y: 60, width: 48, height: 48))
/// ```
public struct Canvas: Sendable {
    public private(set) var image: RGBAImage
    /// Pixels visited by drawing operations (the area of their clipped bounds), a measure of drawing work.
    public private(set) var pixelsDrawn = 0

    public init(width: Int, height: Int, fill: RGBA = RGBA(0, 0, 0, 0)) {
        image = RGBAImage(width: width, height: height, fill: fill)
    }

    public var width: Int { image.width }
    public var height: Int { image.height }

    // MARK: Shapes

    /// Fills a rounded rectangle (radius 0 for square corners) with `paint`, scaled by `opacity`.
    ///
    /// The signed distance to a rounded rectangle is convex along a row, so the pixels it covers
    /// fully form one span: the distance is computed only from each end inwards, up to that span,
    /// which is then filled without it.
    public mutating func fillRoundedRect(_ rect: Rect, radius: Double, paint: Paint, opacity: Double = 1) {
        let r = max(0, min(radius, min(rect.width, rect.height) / 2))
        let shader = Shader(paint: paint, rect: rect)
        guard let (x0, x1, y0, y1) = clip(rect.outset(by: 1)) else { return }
        pixelsDrawn += (x1 - x0) * (y1 - y0)
        let w = width
        let opacity = min(1, max(0, opacity))
        image.pixels.withUnsafeMutableBufferPointer { dst in
            for y in y0..<y1 {
                let row = y * w
                // From the left: edge pixels, up to the first fully covered one.
                var left = x0
                while left < x1 {
                    let d = Self.roundedRectDistance(left, y, rect, r)
                    if d <= -0.5 { break }
                    let coverage = Self.coverage(distance: d)
                    if coverage > 0 { Self.blend(dst, (row + left) * 4, shader.color(left, y), coverage * opacity) }
                    left += 1
                }
                guard left < x1 else { continue }
                var right = x1 - 1
                while right > left {
                    let d = Self.roundedRectDistance(right, y, rect, r)
                    if d <= -0.5 { break }
                    let coverage = Self.coverage(distance: d)
                    if coverage > 0 { Self.blend(dst, (row + right) * 4, shader.color(right, y), coverage * opacity) }
                    right -= 1
                }
                // The fully covered span.
                if let solid = shader.solid {
                    let alpha = Self.alpha255(solid.a, opacity)
                    for x in left...right { Self.blend(dst, (row + x) * 4, solid, alpha: alpha) }
                } else {
                    for x in left...right {
                        let color = shader.color(x, y)
                        Self.blend(dst, (row + x) * 4, color, alpha: Self.alpha255(color.a, opacity))
                    }
                }
            }
        }
    }

    /// Strokes the inside edge of a rounded rectangle with a line `lineWidth` pixels wide.
    public mutating func strokeRoundedRect(_ rect: Rect, radius: Double, lineWidth: Double, color: RGBA) {
        guard lineWidth > 0 else { return }
        let r = max(0, min(radius, min(rect.width, rect.height) / 2))
        let half = lineWidth / 2
        forEachPixel(in: rect.outset(by: 1)) { x, y in
            let d = Self.roundedRectDistance(x, y, rect, r)
            let coverage = Self.coverage(distance: abs(d + half) - half)
            return coverage > 0 ? (color, coverage) : nil
        }
    }

    /// Composites `mask` (alpha only, `maskWidth` wide, placed with its top left at `origin`) in `color`.
    public mutating func fillMask(_ mask: [Float], maskWidth: Int, origin: (x: Int, y: Int), color: RGBA) {
        let maskHeight = mask.count / max(maskWidth, 1)
        let bounds = Rect(x: Double(origin.x), y: Double(origin.y), width: Double(maskWidth), height: Double(maskHeight))
        forEachPixel(in: bounds) { x, y in
            let a = mask[(y - origin.y) * maskWidth + (x - origin.x)]
            return a > 0 ? (color, Double(a)) : nil
        }
    }

    // MARK: Images

    /// Draws `source` (or its `sourceRect` part) scaled into `rect` with bilinear filtering.
    /// With `tint`, the source's alpha is used as coverage of the tint colour (glyph atlases).
    ///
    /// Fixed point: sample weights in 1/256ths, colour interpolated premultiplied (so transparent
    /// texels do not darken edges); each column's sample positions are computed once per call.
    public mutating func drawImage(_ source: RGBAImage, from sourceRect: Rect? = nil, in rect: Rect,
                                   opacity: Double = 1, tint: RGBA? = nil) {
        let src = sourceRect ?? Rect(x: 0, y: 0, width: Double(source.width), height: Double(source.height))
        guard rect.width > 0, rect.height > 0, src.width > 0, src.height > 0 else { return }
        let sx = src.width / rect.width, sy = src.height / rect.height
        // Clamp samples to the source rectangle, so neighbouring atlas cells never bleed in.
        let minX = max(0, src.x.pixel), maxX = min(source.width - 1, src.maxX.rounded(.up).pixel - 1)
        let minY = max(0, src.y.pixel), maxY = min(source.height - 1, src.maxY.rounded(.up).pixel - 1)
        guard minX <= maxX, minY <= maxY, let (x0, x1, y0, y1) = clip(rect) else { return }
        pixelsDrawn += (x1 - x0) * (y1 - y0)
        let opacity256 = Int((min(1, max(0, opacity)) * 256).rounded())
        guard opacity256 > 0 else { return }
        // Per column: the two source columns (as byte offsets) and the weight of the right one.
        let columns = x1 - x0
        var left = [Int](repeating: 0, count: columns), right = [Int](repeating: 0, count: columns)
        var weight = [Int](repeating: 0, count: columns)
        for x in x0..<x1 {
            let u = src.x + (Double(x) + 0.5 - rect.x) * sx - 0.5
            let uf = u.rounded(.down)
            left[x - x0] = min(max(uf.pixel, minX), maxX) * 4
            right[x - x0] = min(max(uf.pixel + 1, minX), maxX) * 4
            weight[x - x0] = Int(((u - uf) * 256).rounded())
        }
        let w = width, sw = source.width
        image.pixels.withUnsafeMutableBufferPointer { dst in
            source.pixels.withUnsafeBufferPointer { sp in
                left.withUnsafeBufferPointer { left in
                right.withUnsafeBufferPointer { right in
                weight.withUnsafeBufferPointer { weight in
                    for y in y0..<y1 {
                        let v = src.y + (Double(y) + 0.5 - rect.y) * sy - 0.5
                        let vf = v.rounded(.down)
                        let top = min(max(vf.pixel, minY), maxY) * sw * 4
                        let bottom = min(max(vf.pixel + 1, minY), maxY) * sw * 4
                        let fy = Int(((v - vf) * 256).rounded())
                        let row = y * w
                        for c in 0..<columns {
                            let fx = weight[c]
                            // Weights sum to 65536.
                            let w00 = (256 - fx) * (256 - fy), w10 = fx * (256 - fy), w01 = (256 - fx) * fy, w11 = fx * fy
                            let i00 = top + left[c], i10 = top + right[c], i01 = bottom + left[c], i11 = bottom + right[c]
                            let a00 = Int(sp[i00 + 3]), a10 = Int(sp[i10 + 3]), a01 = Int(sp[i01 + 3]), a11 = Int(sp[i11 + 3])
                            let a = a00 * w00 + a10 * w10 + a01 * w01 + a11 * w11  // alpha × 65536
                            guard a > 0 else { continue }
                            let alpha = (a * opacity256 + (1 << 23)) >> 24  // 0…255
                            guard alpha > 0 else { continue }
                            let offset = (row + x0 + c) * 4
                            if let tint {
                                Self.blend(dst, offset, tint, alpha: (alpha * Int(tint.a) + 127) / 255)
                                continue
                            }
                            @inline(__always) func channel(_ k: Int) -> UInt8 {
                                let p = Int(sp[i00 + k]) * a00 * w00 + Int(sp[i10 + k]) * a10 * w10
                                    + Int(sp[i01 + k]) * a01 * w01 + Int(sp[i11 + k]) * a11 * w11
                                return UInt8(min(255, (p + a / 2) / a))
                            }
                            Self.blend(dst, offset, RGBA(channel(0), channel(1), channel(2), 255), alpha: alpha)
                        }
                    }
                }
                }
                }
            }
        }
    }

    /// Copies `tile` onto the canvas at a whole-pixel position with src-over compositing.
    public mutating func blit(_ tile: RGBAImage, at origin: (x: Int, y: Int)) {
        let bounds = Rect(x: Double(origin.x), y: Double(origin.y), width: Double(tile.width), height: Double(tile.height))
        tile.pixels.withUnsafeBufferPointer { tp in
            forEachPixel(in: bounds) { x, y in
                let i = ((y - origin.y) * tile.width + (x - origin.x)) * 4
                let a = tp[i + 3]
                return a > 0 ? (RGBA(tp[i], tp[i + 1], tp[i + 2], 255), Double(a) / 255) : nil
            }
        }
    }

    // MARK: Core

    /// The pixel columns `x0..<x1` and rows `y0..<y1` that `bounds` touches, clipped to the canvas;
    /// `nil` when none.
    @inline(__always)
    private func clip(_ bounds: Rect) -> (Int, Int, Int, Int)? {
        let x0 = max(0, bounds.x.rounded(.down).pixel), x1 = min(width, bounds.maxX.rounded(.up).pixel)
        let y0 = max(0, bounds.y.rounded(.down).pixel), y1 = min(height, bounds.maxY.rounded(.up).pixel)
        return x0 < x1 && y0 < y1 ? (x0, x1, y0, y1) : nil
    }

    /// `alpha` (0…255) scaled by `opacity` (0…1), rounded.
    @inline(__always)
    static func alpha255(_ alpha: UInt8, _ opacity: Double) -> Int {
        opacity >= 1 ? Int(alpha) : Int((Double(alpha) * opacity).rounded())
    }

    /// Source-over compositing of `color` (its own alpha ignored) at `alpha` (0…255) onto the pixel
    /// at byte offset `i`. Onto an opaque pixel (the common case: the window is opaque) the blend is
    /// integer arithmetic, rounded; onto a translucent one it is ``blend(_:_:_:_:)``.
    @inline(__always)
    static func blend(_ dst: UnsafeMutableBufferPointer<UInt8>, _ i: Int, _ color: RGBA, alpha: Int) {
        guard alpha > 0 else { return }
        if alpha >= 255 {
            dst[i] = color.r; dst[i + 1] = color.g; dst[i + 2] = color.b; dst[i + 3] = 255
            return
        }
        guard dst[i + 3] == 255 else {
            blendOntoTranslucent(dst, i, color, Double(alpha) / 255)
            return
        }
        let keep = 255 - alpha
        dst[i] = UInt8((Int(color.r) * alpha + Int(dst[i]) * keep + 127) / 255)
        dst[i + 1] = UInt8((Int(color.g) * alpha + Int(dst[i + 1]) * keep + 127) / 255)
        dst[i + 2] = UInt8((Int(color.b) * alpha + Int(dst[i + 2]) * keep + 127) / 255)
    }

    /// Visits every pixel of `bounds` (clipped to the canvas); `shade` returns a colour and a
    /// coverage 0…1 (multiplied with the colour's alpha), or `nil` to leave the pixel.
    @inline(__always)
    private mutating func forEachPixel(in bounds: Rect, _ shade: (Int, Int) -> (RGBA, Double)?) {
        guard let (x0, x1, y0, y1) = clip(bounds) else { return }
        pixelsDrawn += (x1 - x0) * (y1 - y0)
        let w = width
        image.pixels.withUnsafeMutableBufferPointer { dst in
            for y in y0..<y1 {
                for x in x0..<x1 {
                    guard let (color, coverage) = shade(x, y) else { continue }
                    Self.blend(dst, (y * w + x) * 4, color, coverage)
                }
            }
        }
    }

    /// Source-over compositing of `color` at `coverage` onto the pixel at byte offset `i`, straight alpha.
    @inline(__always)
    static func blend(_ dst: UnsafeMutableBufferPointer<UInt8>, _ i: Int, _ color: RGBA, _ coverage: Double) {
        if dst[i + 3] == 255 {
            blend(dst, i, color, alpha: Int((Double(color.a) * min(1, coverage)).rounded()))
        } else {
            blendOntoTranslucent(dst, i, color, Double(color.a) / 255 * min(1, coverage))
        }
    }

    /// Source-over of `color` (its own alpha ignored) at `sa` (0…1) onto a pixel that is not opaque.
    @inline(__always)
    static func blendOntoTranslucent(_ dst: UnsafeMutableBufferPointer<UInt8>, _ i: Int, _ color: RGBA, _ sa: Double) {
        guard sa > 0 else { return }
        let da = Double(dst[i + 3]) / 255
        let oa = sa + da * (1 - sa)
        let k = da * (1 - sa)
        func mix(_ s: UInt8, _ d: UInt8) -> UInt8 {
            UInt8(min(255, ((Double(s) * sa + Double(d) * k) / oa).rounded()))
        }
        dst[i] = mix(color.r, dst[i])
        dst[i + 1] = mix(color.g, dst[i + 1])
        dst[i + 2] = mix(color.b, dst[i + 2])
        dst[i + 3] = UInt8(min(255, (oa * 255).rounded()))
    }

    /// Coverage of a pixel whose centre is `distance` pixels outside an edge (negative inside).
    @inline(__always)
    static func coverage(distance: Double) -> Double {
        min(1, max(0, 0.5 - distance))
    }

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

/// Evaluates a ``Paint`` at pixel centres of the rectangle it fills.
struct Shader {
    let solid: RGBA?
    let gradient: LinearGradient?
    let origin: (x: Double, y: Double)
    let direction: (x: Double, y: Double)
    let length: Double
    let lookup: [RGBA]

    init(paint: Paint, rect: Rect) {
        switch paint {
        case .solid(let color):
            solid = color
            gradient = nil
            origin = (0, 0)
            direction = (0, 0)
            length = 1
            lookup = []
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
            // 256 precomputed steps keep the inner loop free of stop searches.
            lookup = (0...255).map { g.color(at: Double($0) / 255) }
        }
    }

    @inline(__always)
    func color(_ x: Int, _ y: Int) -> RGBA {
        if let solid { return solid }
        let t = ((Double(x) + 0.5 - origin.x) * direction.x + (Double(y) + 0.5 - origin.y) * direction.y) / length
        return lookup[t.isNaN ? 0 : (min(1, max(0, t)) * 255).rounded().pixel]
    }
}
