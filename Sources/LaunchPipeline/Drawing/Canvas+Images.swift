import LaunchImage

/// Drawing images: scaled with bilinear filtering, or copied at a whole-pixel position.
extension Canvas {
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
        guard minX <= maxX, minY <= maxY, let (x0, x1, y0, y1) = area(rect) else { return }
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
        guard let (x0, x1, y0, y1) = area(bounds) else { return }
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
}
