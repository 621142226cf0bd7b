import LaunchImage

/// One ``Canvas/drawImage(_:from:in:opacity:tint:)`` call's bilinear sampling, row by row: the
/// per-column table (computed once per call) and the path each row takes — glyph coverage, the
/// separable paths (opaque or not), texels drawn at their size, or the general bilinear path. Every
/// path computes the same integer values: sample weights in 1/256ths, colour interpolated
/// premultiplied (so transparent texels do not darken edges).
struct ImageRowSampler {
    /// Per column drawn: the left and right source columns (byte offsets) and the right one's weight (0…256).
    let left: UnsafeMutablePointer<Int>
    let right: UnsafeMutablePointer<Int>
    let weight: UnsafeMutablePointer<Int>
    let columns: Int
    /// The source columns sampled.
    let minX: Int
    let maxX: Int
    /// The opacity in 1/256ths (1…256).
    let opacity256: Int
    /// With a tint, the source's alpha is coverage of the tint colour (glyph atlases).
    let tint: RGBA?
    /// The separable paths' row of source columns interpolated down (`nil`: not separable).
    let vertical: UnsafeMutableBufferPointer<Int>?
    /// Whether every texel of the source region is opaque (checked for the separable paths only).
    let opaqueSource: Bool
    /// Whether every sample is one texel, in a run of texels (an image drawn at its size on whole pixels).
    let onTexels: Bool

    /// Fills the column table for the canvas columns `xs`: source position `from + (x + 0.5 − origin) × scale − 0.5`.
    static func sampleColumns(
        _ xs: Range<Int>, from sourceX: Double, origin: Double, scale: Double, clamp: ClosedRange<Int>,
        left: UnsafeMutablePointer<Int>, right: UnsafeMutablePointer<Int>, weight: UnsafeMutablePointer<Int>
    ) {
        for x in xs {
            let u = sourceX + (Double(x) + 0.5 - origin) * scale - 0.5
            let uf = u.rounded(.down)
            left[x - xs.lowerBound] = min(max(uf.pixel, clamp.lowerBound), clamp.upperBound) * 4
            right[x - xs.lowerBound] = min(max(uf.pixel + 1, clamp.lowerBound), clamp.upperBound) * 4
            let f = ((u - uf) * 256).rounded()
            weight[x - xs.lowerBound] = f.isNaN ? 0 : Int(min(256, max(0, f)))
        }
    }

    /// Whether each column samples one texel, the next after the column before's.
    static func onTexels(left: UnsafeMutablePointer<Int>, weight: UnsafeMutablePointer<Int>, columns: Int) -> Bool {
        for c in 0..<columns where weight[c] != 0 || left[c] != left[0] + 4 * c { return false }
        return true
    }

    /// Whether every texel of `source` in `columns` × `rows` is opaque.
    static func isOpaque(_ source: RGBAImage, columns: ClosedRange<Int>, rows: ClosedRange<Int>) -> Bool {
        source.pixels.withUnsafeBufferPointer { sp in
            for sy in rows {
                let rowStart = (sy * source.width + columns.lowerBound) * 4
                for k in 0..<columns.count where sp[rowStart + k * 4 + 3] != 255 { return false }
            }
            return true
        }
    }

    /// Draws one canvas row at `row` from the source rows `top` and `bottom`, `fy` 1/256ths from top to bottom.
    @inline(__always)
    func drawRow(_ row: UnsafeMutableRawPointer, top: UnsafePointer<UInt8>, bottom: UnsafePointer<UInt8>, fy: Int) {
        if let tint {
            tintRow(row, tint: tint, top: top, bottom: bottom, fy: fy)
        } else if let vertical, opaqueSource, Canvas.rowIsOpaque(row, count: columns) {
            opaqueSeparableRow(row, vertical: vertical, top: top, bottom: bottom, fy: fy)
        } else if let vertical {
            separableRow(row, vertical: vertical, top: top, bottom: bottom, fy: fy)
        } else if onTexels, fy == 0, Canvas.rowIsOpaque(row, count: columns) {
            texelRow(row, top: top)
        } else {
            bilinearRow(row, top: top, bottom: bottom, fy: fy)
        }
    }

    /// Glyphs: the alpha channel only, as coverage of the tint.
    @inline(__always)
    func tintRow(_ row: UnsafeMutableRawPointer, tint: RGBA, top: UnsafePointer<UInt8>, bottom: UnsafePointer<UInt8>, fy: Int) {
        let opaque = Canvas.OpaqueSource(tint)
        let tintAlpha = Int(tint.a)
        for c in 0..<columns {
            let fx = weight[c], l = left[c] + 3, r = right[c] + 3
            // Weights sum to 65536.
            let a =
                (Int(top[l]) * (256 - fx) + Int(top[r]) * fx) * (256 - fy)
                + (Int(bottom[l]) * (256 - fx) + Int(bottom[r]) * fx) * fy  // alpha × 65536
            guard a > 0 else { continue }
            let alpha = (a * opacity256 + (1 << 23)) >> 24  // 0…255
            guard alpha > 0 else { continue }
            let blended = tintAlpha == 255 ? alpha : (alpha * tintAlpha + 127) / 255
            let p = row + c * 4
            let d = p.load(as: UInt32.self)
            if d >= 0xFF00_0000, blended > 0, blended < 255 {
                p.storeBytes(of: opaque.blend(onto: d, alpha: UInt32(blended)), as: UInt32.self)
            } else {
                Canvas.blendPixel(p, tint, alpha: blended)
            }
        }
    }

    /// Opaque texels onto opaque pixels: each channel ((Σ c·w) + 2¹⁵) >> 16 and one alpha,
    /// (255 · opacity + 128) >> 8: the values of the general path.
    @inline(__always)
    func opaqueSeparableRow(
        _ row: UnsafeMutableRawPointer, vertical: UnsafeMutableBufferPointer<Int>, top: UnsafePointer<UInt8>, bottom: UnsafePointer<UInt8>, fy: Int
    ) {
        let vb = vertical.baseAddress! - minX * 4
        let gy = 256 &- fy
        for k in minX...maxX {
            let t = top + k * 4, b = bottom + k * 4
            vb[k * 4] = Int(t[0]) &* gy &+ Int(b[0]) &* fy
            vb[k * 4 + 1] = Int(t[1]) &* gy &+ Int(b[1]) &* fy
            vb[k * 4 + 2] = Int(t[2]) &* gy &+ Int(b[2]) &* fy
        }
        let alpha = UInt32(truncatingIfNeeded: (255 &* opacity256 &+ 128) >> 8) << 24
        row.withMemoryRebound(to: UInt32.self, capacity: columns) { d in
            for c in 0..<columns {
                let fx = weight[c], gx = 256 &- fx, l = left[c], r = right[c]
                let red = UInt32(truncatingIfNeeded: (vb[l] &* gx &+ vb[r] &* fx &+ 32768) >> 16)
                let green = UInt32(truncatingIfNeeded: (vb[l + 1] &* gx &+ vb[r + 1] &* fx &+ 32768) >> 16)
                let blue = UInt32(truncatingIfNeeded: (vb[l + 2] &* gx &+ vb[r + 2] &* fx &+ 32768) >> 16)
                d[c] = Canvas.overOpaque(red | green << 8 | blue << 16 | alpha, d[c])
            }
        }
    }

    /// Separable: each source column interpolated down once per row (alpha and premultiplied
    /// channels), then across per pixel: the same integer sums as the general path.
    @inline(__always)
    func separableRow(
        _ row: UnsafeMutableRawPointer, vertical: UnsafeMutableBufferPointer<Int>, top: UnsafePointer<UInt8>, bottom: UnsafePointer<UInt8>, fy: Int
    ) {
        let vb = vertical.baseAddress! - minX * 4
        for k in minX...maxX {
            let t = top + k * 4, b = bottom + k * 4
            let at = Int(t[3]) * (256 - fy), ab = Int(b[3]) * fy
            vb[k * 4] = Int(t[0]) * at + Int(b[0]) * ab
            vb[k * 4 + 1] = Int(t[1]) * at + Int(b[1]) * ab
            vb[k * 4 + 2] = Int(t[2]) * at + Int(b[2]) * ab
            vb[k * 4 + 3] = at + ab
        }
        for c in 0..<columns {
            // Wrapping arithmetic: every sum is below 2⁴⁰ (255 × 255 × 65536), none can overflow.
            let fx = weight[c], gx = 256 &- fx, l = left[c], r = right[c]
            let a = vb[l + 3] &* gx &+ vb[r + 3] &* fx  // alpha × 65536
            guard a > 0 else { continue }
            let alpha = (a &* opacity256 &+ (1 << 23)) >> 24  // 0…255
            guard alpha > 0 else { continue }
            @inline(__always) func channel(_ k: Int) -> UInt8 {
                let p = UInt(bitPattern: vb[l + k] &* gx &+ vb[r + k] &* fx)
                // Opaque texels: an unsigned division by a constant (a multiply).
                let value = a == 255 << 16 ? (p &+ (255 << 15)) / (255 << 16) : (p &+ UInt(a / 2)) / UInt(a)
                return UInt8(truncatingIfNeeded: min(255, value))
            }
            Canvas.blendPixel(row + c * 4, RGBA(channel(0), channel(1), channel(2), 255), alpha: alpha)
        }
    }

    /// Texels at their size onto opaque pixels, branch-free (vectorised): the texel's alpha scaled
    /// by the opacity, as in the general path.
    @inline(__always)
    func texelRow(_ row: UnsafeMutableRawPointer, top: UnsafePointer<UInt8>) {
        row.withMemoryRebound(to: UInt32.self, capacity: columns) { d in
            UnsafeRawPointer(top + left[0]).withMemoryRebound(to: UInt32.self, capacity: columns) { s in
                let opacity = UInt32(opacity256)
                for c in 0..<columns {
                    let texel = s[c]
                    let alpha = ((texel >> 24) &* opacity &+ 128) >> 8
                    d[c] = Canvas.overOpaque((texel & 0x00FF_FFFF) | alpha << 24, d[c])
                }
            }
        }
    }

    /// The general path: four texels per pixel, or the texel itself where a sample falls on one.
    @inline(__always)
    func bilinearRow(_ row: UnsafeMutableRawPointer, top: UnsafePointer<UInt8>, bottom: UnsafePointer<UInt8>, fy: Int) {
        for c in 0..<columns {
            let fx = weight[c]
            if fx == 0, fy == 0 {
                texel(UnsafeRawPointer(top + left[c]).loadUnaligned(as: UInt32.self), onto: row + c * 4)
                continue
            }
            let w00 = (256 - fx) * (256 - fy), w10 = fx * (256 - fy), w01 = (256 - fx) * fy, w11 = fx * fy
            let p00 = top + left[c], p10 = top + right[c], p01 = bottom + left[c], p11 = bottom + right[c]
            let a00 = Int(p00[3]) * w00, a10 = Int(p10[3]) * w10, a01 = Int(p01[3]) * w01, a11 = Int(p11[3]) * w11
            let a = a00 + a10 + a01 + a11  // alpha × 65536
            guard a > 0 else { continue }
            let alpha = (a * opacity256 + (1 << 23)) >> 24  // 0…255
            guard alpha > 0 else { continue }
            // Four opaque texels: a / 255 = 65536, so the division is a shift (the same value).
            let opaqueTexels = a == 255 << 16
            @inline(__always) func channel(_ k: Int) -> UInt8 {
                if opaqueTexels {
                    let p = Int(p00[k]) * w00 + Int(p10[k]) * w10 + Int(p01[k]) * w01 + Int(p11[k]) * w11
                    return UInt8(min(255, (p + (1 << 15)) >> 16))
                }
                let p = Int(p00[k]) * a00 + Int(p10[k]) * a10 + Int(p01[k]) * a01 + Int(p11[k]) * a11
                return UInt8(min(255, (p + a / 2) / a))
            }
            Canvas.blendPixel(row + c * 4, RGBA(channel(0), channel(1), channel(2), 255), alpha: alpha)
        }
    }

    /// On a texel (an image drawn at its size): the texel `s` itself, at the opacity, onto `p`.
    @inline(__always)
    func texel(_ s: UInt32, onto p: UnsafeMutableRawPointer) {
        let alpha = (Int(s >> 24) * opacity256 + 128) >> 8
        guard alpha > 0 else { return }
        let d = p.load(as: UInt32.self)
        if d >= 0xFF00_0000, alpha < 255 {
            p.storeBytes(of: Canvas.OpaqueSource(s).blend(onto: d, alpha: UInt32(alpha)), as: UInt32.self)
        } else {
            Canvas.blendPixel(p, RGBA(UInt8(s & 0xFF), UInt8((s >> 8) & 0xFF), UInt8((s >> 16) & 0xFF), 255), alpha: alpha)
        }
    }
}
