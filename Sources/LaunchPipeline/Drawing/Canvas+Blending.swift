import LaunchImage

/// Source-over compositing of one pixel or a run of pixels (straight alpha, RGBA8 as little-endian
/// 32-bit words): integer arithmetic, two channels per multiply onto opaque pixels, exact rounding
/// of `x / 255`; and the per-pixel definitions the fast paths are tested against.
extension Canvas {
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
}
