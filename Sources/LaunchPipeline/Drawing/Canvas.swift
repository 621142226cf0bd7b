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
    public private(set) var image: RGBAImage
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
        guard let (x0, x1, y0, y1) = clip(rect.outset(by: 1)) else { return }
        pixelsDrawn += (x1 - x0) * (y1 - y0)
        let w = width
        let opacity = min(1, max(0, opacity))
        let geometry = RoundedRectGeometry(rect, r)
        let repeater = rowRepeater
        image.pixels.withUnsafeMutableBytes { bytes in
            let base = bytes.baseAddress!
            shader.lookup.withUnsafeBufferPointer { lookup in
                for y in repeater.rows(y0..<y1) {
                    let row = base + y * w * 4
                    let dy = geometry.rowTerm(y)
                    // From the left: edge pixels, up to the first fully covered one.
                    var left = x0
                    while left < x1 {
                        let d = geometry.distance(left, dy)
                        if d <= -0.5 { break }
                        let coverage = Self.coverage(distance: d)
                        if coverage > 0 {
                            let color = shader.color(left, y, lookup)
                            Self.blendPixel(row + left * 4, color, alpha: Self.alpha(color.a, coverage * opacity))
                        }
                        left += 1
                    }
                    guard left < x1 else { continue }
                    var right = x1 - 1
                    while right > left {
                        let d = geometry.distance(right, dy)
                        if d <= -0.5 { break }
                        let coverage = Self.coverage(distance: d)
                        if coverage > 0 {
                            let color = shader.color(right, y, lookup)
                            Self.blendPixel(row + right * 4, color, alpha: Self.alpha(color.a, coverage * opacity))
                        }
                        right -= 1
                    }
                    // The fully covered span.
                    if shader.constantAlongRows {
                        let color = shader.color(left, y, lookup)
                        Self.blendSpan(row + left * 4, count: right - left + 1, color, alpha: Self.alpha255(color.a, opacity))
                    } else {
                        let rowTerm = (Double(y) + 0.5 - shader.origin.y) * shader.direction.y
                        let ox = shader.origin.x, dx = shader.direction.x, length = shader.length
                        let whole = opacity >= 1
                        for x in left...right {
                            // As ``Shader/color(_:_:_:)``, with the row's term computed once; the step is
                            // rounded to nearest (even at a tie) by adding 1.5 × 2⁵², without a checked conversion.
                            let t = ((Double(x) + 0.5 - ox) * dx + rowTerm) / length
                            let index = Int(truncatingIfNeeded: ((t > 0 ? (t < 1 ? t : 1) : 0) * 255 + 6_755_399_441_055_744).bitPattern & 0x1FF)
                            let color = lookup[index]
                            if whole, color.a == 255 {
                                (row + x * 4).storeBytes(
                                    of: UInt32(color.r) | UInt32(color.g) << 8 | UInt32(color.b) << 16 | 0xFF00_0000, as: UInt32.self)
                            } else {
                                Self.blendPixel(row + x * 4, color, alpha: Self.alpha255(color.a, opacity))
                            }
                        }
                    }
                }
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
        guard let (x0, x1, y0, y1) = clip(rect.outset(by: 1)) else { return }
        pixelsDrawn += (x1 - x0) * (y1 - y0)
        let w = width
        let geometry = RoundedRectGeometry(rect, r)
        let repeater = rowRepeater
        image.pixels.withUnsafeMutableBytes { bytes in
            let base = bytes.baseAddress!
            for y in repeater.rows(y0..<y1) {
                let row = base + y * w * 4
                let dy = geometry.rowTerm(y)
                var left = x0
                while left < x1 {
                    let d = geometry.distance(left, dy)
                    if d <= inside { break }
                    let coverage = Self.coverage(distance: abs(d + half) - half)
                    if coverage > 0 { Self.blendPixel(row + left * 4, color, alpha: Self.alpha(color.a, coverage)) }
                    left += 1
                }
                guard left < x1 else { continue }
                var right = x1 - 1
                while right > left {
                    let d = geometry.distance(right, dy)
                    if d <= inside { break }
                    let coverage = Self.coverage(distance: abs(d + half) - half)
                    if coverage > 0 { Self.blendPixel(row + right * 4, color, alpha: Self.alpha(color.a, coverage)) }
                    right -= 1
                }
            }
        }
    }

    /// Composites `mask` (alpha only, `maskWidth` wide, placed with its top left at `origin`) in `color`.
    public mutating func fillMask(_ mask: [Float], maskWidth: Int, origin: (x: Int, y: Int), color: RGBA) {
        let maskHeight = mask.count / max(maskWidth, 1)
        let bounds = Rect(x: Double(origin.x), y: Double(origin.y), width: Double(maskWidth), height: Double(maskHeight))
        guard let (x0, x1, y0, y1) = clip(bounds) else { return }
        pixelsDrawn += (x1 - x0) * (y1 - y0)
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

    // MARK: Images

    /// Draws `source` (or its `sourceRect` part) scaled into `rect` with bilinear filtering.
    /// With `tint`, the source's alpha is used as coverage of the tint colour (glyph atlases).
    ///
    /// Fixed point: sample weights in 1/256ths, colour interpolated premultiplied (so transparent
    /// texels do not darken edges); each column's sample positions are computed once per call.
    public mutating func drawImage(
        _ source: RGBAImage, from sourceRect: Rect? = nil, in rect: Rect,
        opacity: Double = 1, tint: RGBA? = nil
    ) {
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
        let columns = x1 - x0
        let w = width, sw = source.width
        let repeater = rowRepeater
        // Per column: the two source columns (as byte offsets) and the weight of the right one.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * columns) { table in
            let left = table.baseAddress!, right = left + columns, weight = right + columns
            ImageRowSampler.sampleColumns(
                x0..<x1, from: src.x, origin: rect.x, scale: sx, clamp: minX...maxX, left: left, right: right, weight: weight)
            // The separable path when the source columns sampled are not many more than the columns drawn
            // (not for glyphs, nor for an image drawn at its size, whose pixels are texels).
            let sourceColumns = maxX - minX + 1
            let separable = tint == nil && sourceColumns <= 2 * columns + 2 && (sx != 1 || sy != 1)
            // An opaque source region (checked when it is not much larger than the area drawn) needs no
            // alpha: a texel's weight is its bilinear weight, and the division by the alpha a shift.
            let opaqueSource =
                separable && maxY - minY + 1 <= 2 * (y1 - y0) + 2 && ImageRowSampler.isOpaque(source, columns: minX...maxX, rows: minY...maxY)
            withUnsafeTemporaryAllocation(of: Int.self, capacity: separable ? 4 * sourceColumns : 0) { rowStorage in
                let sampler = ImageRowSampler(
                    left: left, right: right, weight: weight, columns: columns, minX: minX, maxX: maxX, opacity256: opacity256, tint: tint,
                    vertical: separable ? rowStorage : nil, opaqueSource: opaqueSource,
                    onTexels: ImageRowSampler.onTexels(left: left, weight: weight, columns: columns))
                image.pixels.withUnsafeMutableBytes { bytes in
                    let base = bytes.baseAddress!
                    source.pixels.withUnsafeBufferPointer { sp in
                        let sp = sp.baseAddress!
                        for y in repeater.rows(y0..<y1) {
                            let v = src.y + (Double(y) + 0.5 - rect.y) * sy - 0.5
                            let vf = v.rounded(.down)
                            let top = sp + min(max(vf.pixel, minY), maxY) * sw * 4
                            let bottom = sp + min(max(vf.pixel + 1, minY), maxY) * sw * 4
                            let fyRounded = ((v - vf) * 256).rounded()
                            let fy = fyRounded.isNaN ? 0 : Int(min(256, max(0, fyRounded)))
                            sampler.drawRow(base + (y * w + x0) * 4, top: top, bottom: bottom, fy: fy)
                        }
                    }
                }
            }
        }
    }

    /// Copies `tile` onto the canvas at a whole-pixel position with src-over compositing.
    public mutating func blit(_ tile: RGBAImage, at origin: (x: Int, y: Int)) {
        let bounds = Rect(x: Double(origin.x), y: Double(origin.y), width: Double(tile.width), height: Double(tile.height))
        guard let (x0, x1, y0, y1) = clip(bounds) else { return }
        pixelsDrawn += (x1 - x0) * (y1 - y0)
        let w = width, tw = tile.width
        let repeater = rowRepeater
        image.pixels.withUnsafeMutableBytes { bytes in
            let base = bytes.baseAddress!
            tile.pixels.withUnsafeBytes { tileBytes in
                let tp = tileBytes.baseAddress!
                for y in repeater.rows(y0..<y1) {
                    let row = base + (y * w + x0) * 4
                    let tileRow = tp + ((y - origin.y) * tw + (x0 - origin.x)) * 4
                    Self.compositeRow(row, tileRow, count: x1 - x0)
                }
            }
        }
    }

    /// Source-over of `count` straight-alpha pixels at `source` onto `destination`.
    @inline(__always)
    static func compositeRow(_ destination: UnsafeMutableRawPointer, _ source: UnsafeRawPointer, count: Int) {
        if rowIsOpaque(destination, count: count) {
            // Onto opaque pixels every alpha gives the exact result with the same arithmetic (0 keeps
            // the pixel, 255 gives the source), so the loop has no branch and is vectorised.
            destination.withMemoryRebound(to: UInt32.self, capacity: count) { d in
                source.withMemoryRebound(to: UInt32.self, capacity: count) { s in
                    for i in 0..<count { d[i] = overOpaque(s[i], d[i]) }
                }
            }
            return
        }
        var i = 0
        while i < count {
            let s = source.load(fromByteOffset: i * 4, as: UInt32.self)
            let a = s >> 24
            if a == 0 { i += 1; continue }
            let p = destination + i * 4
            if a == 255 {
                p.storeBytes(of: s, as: UInt32.self)
            } else {
                let d = p.load(as: UInt32.self)
                if d >= 0xFF00_0000 {
                    p.storeBytes(of: OpaqueSource(s).blend(onto: d, alpha: a), as: UInt32.self)
                } else {
                    blendTranslucent(p, r: Int(s & 0xFF), g: Int((s >> 8) & 0xFF), b: Int((s >> 16) & 0xFF), alpha: Int(a))
                }
            }
            i += 1
        }
    }

    /// Straight-alpha source-over of `s` onto the opaque pixel `d`, two channels per multiply; the
    /// alpha lane is 255 on both sides, so it stays 255.
    @inline(__always)
    static func overOpaque(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let a = s >> 24, keep = 255 &- a
        var rb = (s & 0x00FF_00FF) &* a &+ (d & 0x00FF_00FF) &* keep &+ 0x0080_0080
        var ga = (((s >> 8) & 0xFF) | 0x00FF_0000) &* a &+ ((d >> 8) & 0x00FF_00FF) &* keep &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        ga = ((ga &+ ((ga >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        return rb | (ga << 8)
    }

    /// Whether the `count` pixels from `p` are all opaque.
    @inline(__always)
    static func rowIsOpaque(_ p: UnsafeMutableRawPointer, count: Int) -> Bool {
        p.withMemoryRebound(to: UInt32.self, capacity: count) { d in
            var all: UInt32 = 0xFFFF_FFFF
            for i in 0..<count { all &= d[i] }
            return all >= 0xFF00_0000
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

    /// `alpha` (0…255) scaled by a coverage 0…1 (NaN counts as 0), rounded as `(alpha × coverage).rounded()`.
    @inline(__always)
    static func alpha(_ alpha: UInt8, _ coverage: Double) -> Int {
        let c = coverage > 0 ? min(1, coverage) : 0
        return Int(Double(alpha) * c + 0.5)
    }

    /// A colour prepared for integer source-over onto opaque pixels, two channels per multiply.
    struct OpaqueSource {
        let rb: UInt32, ga: UInt32, packed: UInt32

        @inline(__always)
        init(_ color: RGBA) {
            rb = UInt32(color.r) | UInt32(color.b) << 16
            ga = UInt32(color.g) | 0x00FF_0000
            packed = UInt32(color.r) | UInt32(color.g) << 8 | UInt32(color.b) << 16 | 0xFF00_0000
        }

        /// The pixel `s` (red in its low byte; its alpha ignored) as an opaque source: two channels
        /// per multiply, the alpha lane 255 on both sides, so it stays 255.
        @inline(__always)
        init(_ s: UInt32) {
            rb = s & 0x00FF_00FF
            ga = ((s >> 8) & 0xFF) | 0x00FF_0000
            packed = s | 0xFF00_0000
        }

        /// Source-over at `alpha` (1…254) onto the opaque pixel `d`: each channel
        /// `(s·a + d·(255 − a)) / 255` rounded to nearest (exactly: `t = x + 128; (t + t >> 8) >> 8`).
        @inline(__always)
        func blend(onto d: UInt32, alpha a: UInt32) -> UInt32 {
            let keep = 255 &- a
            var x = rb &* a &+ (d & 0x00FF_00FF) &* keep &+ 0x0080_0080
            var y = ga &* a &+ ((d >> 8) & 0x00FF_00FF) &* keep &+ 0x0080_0080
            x = ((x &+ ((x >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
            y = ((y &+ ((y >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
            return x | (y << 8)
        }
    }

    /// Source-over of `color` (its own alpha ignored) at `alpha` (0…255) onto the pixel at `p`.
    @inline(__always)
    static func blendPixel(_ p: UnsafeMutableRawPointer, _ color: RGBA, alpha: Int) {
        guard alpha > 0 else { return }
        if alpha >= 255 {
            p.storeBytes(of: OpaqueSource(color).packed, as: UInt32.self)
            return
        }
        let d = p.load(as: UInt32.self)
        if d >= 0xFF00_0000 {
            p.storeBytes(of: OpaqueSource(color).blend(onto: d, alpha: UInt32(alpha)), as: UInt32.self)
        } else {
            blendTranslucent(p, r: Int(color.r), g: Int(color.g), b: Int(color.b), alpha: alpha)
        }
    }

    /// Source-over of a colour at `alpha` (1…254) onto a pixel that is not opaque, straight alpha,
    /// in integers: with `S = a·255` and `K = da·(255 − a)` each channel is `(s·S + d·K) / (S + K)`
    /// and the alpha `(S + K) / 255`, rounded (the exact values of ``blendOntoTranslucent``).
    @inline(__always)
    static func blendTranslucent(_ p: UnsafeMutableRawPointer, r: Int, g: Int, b: Int, alpha: Int) {
        let d = p.load(as: UInt32.self)
        let da = Int(d >> 24)
        if da == 0 {
            p.storeBytes(of: UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(alpha) << 24, as: UInt32.self)
            return
        }
        let s = alpha * 255, k = da * (255 - alpha), o = s + k, half = o / 2
        let dr = Int(d & 0xFF), dg = Int((d >> 8) & 0xFF), db = Int((d >> 16) & 0xFF)
        let nr = (r * s + dr * k + half) / o, ng = (g * s + dg * k + half) / o, nb = (b * s + db * k + half) / o
        let na = (o + 127) / 255
        p.storeBytes(of: UInt32(nr) | UInt32(ng) << 8 | UInt32(nb) << 16 | UInt32(na) << 24, as: UInt32.self)
    }

    /// Source-over of `color` (its own alpha ignored) at `alpha` (0…255) onto `count` pixels from `p`:
    /// a store of one word when opaque, two channels per multiply onto opaque pixels.
    @inline(__always)
    static func blendSpan(_ p: UnsafeMutableRawPointer, count: Int, _ color: RGBA, alpha: Int) {
        guard alpha > 0, count > 0 else { return }
        let source = OpaqueSource(color)
        if alpha >= 255 {
            for i in 0..<count { p.storeBytes(of: source.packed, toByteOffset: i * 4, as: UInt32.self) }
            return
        }
        let a = UInt32(alpha)
        if rowIsOpaque(p, count: count) {
            p.withMemoryRebound(to: UInt32.self, capacity: count) { d in
                for i in 0..<count { d[i] = source.blend(onto: d[i], alpha: a) }
            }
            return
        }
        var i = 0
        while i < count {
            let q = p + i * 4
            let d = q.load(as: UInt32.self)
            if d >= 0xFF00_0000 {
                q.storeBytes(of: source.blend(onto: d, alpha: a), as: UInt32.self)
            } else {
                blendTranslucent(q, r: Int(color.r), g: Int(color.g), b: Int(color.b), alpha: alpha)
            }
            i += 1
        }
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

    /// Source-over compositing of `color` at `coverage` onto the pixel at byte offset `i`, straight
    /// alpha: the per-pixel definition the fast paths are tested against.
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
}

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
