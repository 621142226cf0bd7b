#if canImport(Glibc)
import Glibc
#endif
import LaunchImage
import LaunchManifest

/// A software rasterizer drawing into an RGBA8 framebuffer with anti-aliased edges and
/// src-over compositing (straight alpha). Coordinates are pixels; pixel (x, y) covers
/// the square from (x, y) to (x + 1, y + 1).
///
/// ```swift
/// var canvas = Canvas(width: 320, height: 480, fill: RGBA(0, 0, 0))
/// canvas.fillRoundedRect(Rect(x: 10, y: 10, width: 100, height: 40), radius: 8, paint: .solid(RGBA(255, 160, 0)))
/// canvas.drawImage(icon, in: Rect(x: 20, y: 60, width: 48, height: 48))
/// ```
///
/// Speed: coverage is computed only on anti-aliased edges (a shape's fully covered pixels form one
/// span per row, filled whole); blending is integer arithmetic on 32-bit pixels (two channels per
/// multiply onto opaque pixels, exact rounding of `x / 255`); loops run on raw pointers.
public struct Canvas: Sendable {
    public internal(set) var image: RGBAImage
    /// Pixels visited by drawing operations (the area of their clipped bounds), a measure of drawing work.
    public private(set) var pixelsDrawn = 0
    /// Test only (`test.slowdown`): when set, every drawing loop runs the rows it says again.
    public var rowRepeater: RowRepeater?
    /// Test only (`test.slowFunction`): work added to one drawing function's own code.
    public var injectedWork: InjectedFunctionWork?
    /// What the injected work computed (kept, so that the compiler cannot drop it).
    public private(set) var injectedWorkResult: UInt64 = 0

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
    /// which is then filled without it (one colour per row for a solid or vertical gradient paint).
    public mutating func fillRoundedRect(_ rect: Rect, radius: Double, paint: Paint, opacity: Double = 1) {
        if let work = injectedWork, work.function == "fillRoundedRect" {
            // In this function's own code (a loop of transparent operators: no call, even unoptimized).
            var state = injectedWorkResult, i = 0
            while i < work.iterations {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                i &+= 1
            }
            injectedWorkResult = state
        }
        let r = max(0, min(radius, min(rect.width, rect.height) / 2))
        let shader = Shader(paint: paint, rect: rect)
        guard let (x0, x1, y0, y1) = area(rect.outset(by: 1)) else { return }
        let w = width
        let opacity = min(1, max(0, opacity))
        let geometry = RoundedRectGeometry(rect, r)
        let repeater = rowRepeater
        image.pixels.withUnsafeMutableBytes { bytes in
            let base = bytes.baseAddress!
            shader.lookup.withUnsafeBufferPointer { lookup in
                for y in repeater.rows(y0..<y1) {
                    let row = base + y * w * 4
                    // The edge pixels from each end, up to the first fully covered one.
                    let covered = geometry.walkEdges(x0, x1, geometry.rowTerm(y), inner: -0.5) { x, d in
                        let coverage = Self.coverage(distance: d)
                        if coverage > 0 {
                            let color = shader.color(x, y, lookup)
                            Self.blendPixel(row + x * 4, color, alpha: Self.alpha(color.a, coverage * opacity))
                        }
                    }
                    if let covered { Self.fillCovered(covered, of: row, y: y, shader: shader, lookup: lookup, opacity: opacity) }
                }
            }
        }
    }

    /// Fills the fully covered `columns` of row `y` (at `row`) with `shader`'s colours at `opacity`:
    /// one colour for the row when the paint is constant along rows, else one per pixel.
    @inline(__always)
    private static func fillCovered(
        _ columns: ClosedRange<Int>, of row: UnsafeMutableRawPointer, y: Int, shader: Shader, lookup: UnsafeBufferPointer<RGBA>,
        opacity: Double
    ) {
        if shader.constantAlongRows {
            let color = shader.color(columns.lowerBound, y, lookup)
            blendSpan(row + columns.lowerBound * 4, count: columns.count, color, alpha: alpha255(color.a, opacity))
            return
        }
        let rowTerm = (Double(y) + 0.5 - shader.origin.y) * shader.direction.y
        let ox = shader.origin.x, dx = shader.direction.x, length = shader.length
        let whole = opacity >= 1
        for x in columns {
            // As ``Shader/color(_:_:_:)``, with the row's term computed once; the step is
            // rounded to nearest (even at a tie) by adding 1.5 × 2⁵², without a checked conversion.
            let t = ((Double(x) + 0.5 - ox) * dx + rowTerm) / length
            let index = Int(truncatingIfNeeded: ((t > 0 ? (t < 1 ? t : 1) : 0) * 255 + 6_755_399_441_055_744).bitPattern & 0x1FF)
            let color = lookup[index]
            // `x` is a column of the canvas: its byte offset cannot overflow.
            let pixel = row + x &* 4
            if whole, color.a == 255 {
                pixel.storeBytes(of: UInt32(color.r) | UInt32(color.g) << 8 | UInt32(color.b) << 16 | 0xFF00_0000, as: UInt32.self)
            } else {
                blendPixel(pixel, color, alpha: alpha255(color.a, opacity))
            }
        }
    }

    /// Strokes the inside edge of a rounded rectangle with a line `lineWidth` pixels wide.
    ///
    /// As for a fill, the pixels of a row inside the line (distance ≤ −lineWidth − ½: no coverage)
    /// form one span, which is skipped: only the line's pixels are visited.
    public mutating func strokeRoundedRect(_ rect: Rect, radius: Double, lineWidth: Double, color: RGBA) {
        guard lineWidth > 0 else { return }
        let r = max(0, min(radius, min(rect.width, rect.height) / 2))
        let half = lineWidth / 2
        let inside = -lineWidth - 0.5
        guard let (x0, x1, y0, y1) = area(rect.outset(by: 1)) else { return }
        let w = width
        let geometry = RoundedRectGeometry(rect, r)
        let repeater = rowRepeater
        image.pixels.withUnsafeMutableBytes { bytes in
            let base = bytes.baseAddress!
            for y in repeater.rows(y0..<y1) {
                let row = base + y * w * 4
                _ = geometry.walkEdges(x0, x1, geometry.rowTerm(y), inner: inside) { x, d in
                    let coverage = Self.coverage(distance: abs(d + half) - half)
                    if coverage > 0 { Self.blendPixel(row + x * 4, color, alpha: Self.alpha(color.a, coverage)) }
                }
            }
        }
    }

    /// Composites `mask` (alpha only, `maskWidth` wide, placed with its top left at `origin`) in `color`.
    public mutating func fillMask(_ mask: [Float], maskWidth: Int, origin: (x: Int, y: Int), color: RGBA) {
        let maskHeight = mask.count / max(maskWidth, 1)
        let bounds = Rect(x: Double(origin.x), y: Double(origin.y), width: Double(maskWidth), height: Double(maskHeight))
        guard let (x0, x1, y0, y1) = area(bounds) else { return }
        let w = width
        let colorAlpha = Double(color.a)
        let opaque = Self.OpaqueSource(color)
        let repeater = rowRepeater
        image.pixels.withUnsafeMutableBytes { bytes in
            let base = bytes.baseAddress!
            mask.withUnsafeBufferPointer { m in
                let values = m.baseAddress!
                for y in repeater.rows(y0..<y1) {
                    let row = base + y * w * 4
                    let maskRow = values + (y - origin.y) * maskWidth - origin.x
                    if Self.rowIsOpaque(row + x0 * 4, count: x1 - x0) {
                        // Branch-free (vectorised): coverage clamped to 0…1 (NaN to 0), the alpha rounded
                        // to nearest by adding 1.5 × 2²³ (whose float has a unit last place); alpha 0 keeps the pixel.
                        let colorAlpha = Float(color.a)
                        (row + x0 * 4).withMemoryRebound(to: UInt32.self, capacity: x1 - x0) { d in
                            let m = maskRow + x0
                            for i in 0..<(x1 - x0) {
                                let a = m[i]
                                let c = a > 0 ? (a < 1 ? a : 1) : 0
                                let alpha = (colorAlpha * c + 12_582_912).bitPattern & 0x1FF
                                d[i] = opaque.blend(onto: d[i], alpha: alpha)
                            }
                        }
                        continue
                    }
                    for x in x0..<x1 {
                        let a = maskRow[x]
                        guard a > 0 else { continue }
                        // `(Double(color.a) * coverage).rounded()`, as the per-pixel definition.
                        let alpha = Int(colorAlpha * Double(min(1, a)) + 0.5)
                        guard alpha > 0 else { continue }
                        let p = row + x * 4
                        let d = p.load(as: UInt32.self)
                        if d >= 0xFF00_0000, alpha < 255 {
                            p.storeBytes(of: opaque.blend(onto: d, alpha: UInt32(alpha)), as: UInt32.self)
                        } else {
                            Self.blendPixel(p, color, alpha: alpha)
                        }
                    }
                }
            }
        }
    }

    // MARK: Core

    /// The pixel columns `x0..<x1` and rows `y0..<y1` that `bounds` touches, clipped to the canvas
    /// and counted in ``pixelsDrawn``; `nil` when none.
    @inline(__always)
    mutating func area(_ bounds: Rect) -> (Int, Int, Int, Int)? {
        let x0 = max(0, bounds.x.rounded(.down).pixel), x1 = min(width, bounds.maxX.rounded(.up).pixel)
        let y0 = max(0, bounds.y.rounded(.down).pixel), y1 = min(height, bounds.maxY.rounded(.up).pixel)
        guard x0 < x1, y0 < y1 else { return nil }
        pixelsDrawn += (x1 - x0) * (y1 - y0)
        return (x0, x1, y0, y1)
    }
}
