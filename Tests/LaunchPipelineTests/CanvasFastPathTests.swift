import Testing
import LaunchImage
@testable import LaunchPipeline

/// The rasterizer's fast paths (the fully covered span of a rounded rectangle filled without its
/// distance function, fixed-point bilinear sampling, integer blending onto opaque pixels) give
/// the pixels of the plain per-pixel definitions, to within one step of rounding.
@Suite struct CanvasFastPathTests {
    /// The definition: every pixel's coverage from the signed distance, blended one by one.
    func referenceRoundedRect(_ rect: Rect, radius: Double, color: RGBA, on base: RGBAImage) -> RGBAImage {
        var image = base
        let r = max(0, min(radius, min(rect.width, rect.height) / 2))
        image.pixels.withUnsafeMutableBufferPointer { dst in
            for y in 0..<base.height {
                for x in 0..<base.width {
                    let coverage = Canvas.coverage(distance: Canvas.roundedRectDistance(x, y, rect, r))
                    if coverage > 0 { Canvas.blend(dst, (y * base.width + x) * 4, color, coverage) }
                }
            }
        }
        return image
    }

    func maximumDifference(_ a: RGBAImage, _ b: RGBAImage) -> Int {
        zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    @Test(arguments: [
        (Rect(x: 3.3, y: 2.7, width: 40.2, height: 21.9), 8.0),
        (Rect(x: 0, y: 0, width: 64, height: 48), 0.0),
        (Rect(x: -10, y: 5.5, width: 30, height: 30), 15.0),
        (Rect(x: 10.5, y: 10.5, width: 1.2, height: 30), 4.0),
        (Rect(x: 50, y: 40, width: 30, height: 30), 2.0)
    ])
    func aRoundedRectangleMatchesItsDefinition(rect: Rect, radius: Double) {
        for color in [RGBA(255, 160, 0), RGBA(20, 90, 200, 128)] {
            for background in [RGBA(10, 20, 30), RGBA(0, 0, 0, 0)] {
                var canvas = Canvas(width: 64, height: 48, fill: background)
                let reference = referenceRoundedRect(rect, radius: radius, color: color, on: canvas.image)
                canvas.fillRoundedRect(rect, radius: radius, paint: .solid(color))
                #expect(maximumDifference(canvas.image, reference) <= 1, "rect \(rect) radius \(radius) colour \(color) on \(background)")
            }
        }
    }

    /// Bilinear sampling in doubles, as the definition.
    func referenceSample(_ source: RGBAImage, u: Double, v: Double) -> (RGBA, Double) {
        let x0 = min(max(Int(u.rounded(.down)), 0), source.width - 1), x1 = min(max(Int(u.rounded(.down)) + 1, 0), source.width - 1)
        let y0 = min(max(Int(v.rounded(.down)), 0), source.height - 1), y1 = min(max(Int(v.rounded(.down)) + 1, 0), source.height - 1)
        let fx = u - u.rounded(.down), fy = v - v.rounded(.down)
        let samples = [(source[x0, y0], (1 - fx) * (1 - fy)), (source[x1, y0], fx * (1 - fy)), (source[x0, y1], (1 - fx) * fy), (source[x1, y1], fx * fy)]
        let a = samples.reduce(0) { $0 + Double($1.0.a) * $1.1 }
        guard a > 0 else { return (RGBA(0, 0, 0, 0), 0) }
        func channel(_ value: (RGBA) -> UInt8) -> UInt8 {
            UInt8(min(255, (samples.reduce(0) { $0 + Double(value($1.0)) * Double($1.0.a) * $1.1 } / a).rounded()))
        }
        return (RGBA(channel(\.r), channel(\.g), channel(\.b)), a / 255)
    }

    @Test func aScaledImageMatchesDoubleBilinearSampling() {
        var source = RGBAImage(width: 9, height: 7)
        for y in 0..<7 { for x in 0..<9 { source[x, y] = RGBA(UInt8(x * 28), UInt8(y * 36), UInt8((x * y * 7) % 256), UInt8(x == 0 ? 0 : 255 - y * 30)) } }
        let target = Rect(x: 2.5, y: 1.25, width: 37, height: 29)
        var canvas = Canvas(width: 44, height: 36, fill: RGBA(40, 50, 60))
        canvas.drawImage(source, in: target, opacity: 0.8)
        var reference = Canvas(width: 44, height: 36, fill: RGBA(40, 50, 60)).image
        reference.pixels.withUnsafeMutableBufferPointer { dst in
            for y in 1..<31 {
                for x in 2..<40 {
                    let u = (Double(x) + 0.5 - target.x) * 9 / target.width - 0.5
                    let v = (Double(y) + 0.5 - target.y) * 7 / target.height - 0.5
                    let (color, coverage) = referenceSample(source, u: u, v: v)
                    if coverage > 0 { Canvas.blend(dst, (y * 44 + x) * 4, color, coverage * 0.8) }
                }
            }
        }
        #expect(maximumDifference(canvas.image, reference) <= 2)
        #expect(canvas.image != Canvas(width: 44, height: 36, fill: RGBA(40, 50, 60)).image)
    }

    @Test func integerBlendingOntoAnOpaquePixelRoundsTheExactMix() {
        for alpha in stride(from: 0, through: 255, by: 17) {
            for (s, d) in [(UInt8(255), UInt8(0)), (0, 255), (200, 100), (1, 254)] {
                var pixel: [UInt8] = [d, d, d, 255]
                pixel.withUnsafeMutableBufferPointer { Canvas.blend($0, 0, RGBA(s, s, s), alpha: alpha) }
                let exact = (Double(s) * Double(alpha) + Double(d) * Double(255 - alpha)) / 255
                #expect(abs(Double(pixel[0]) - exact) <= 0.5 + 1e-9, "alpha \(alpha) s \(s) d \(d)")
                #expect(pixel[3] == 255)
            }
        }
    }

    /// A pseudo-random straight-alpha image with every alpha class (0, 255, between).
    func noise(width: Int, height: Int, seed: UInt32) -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        var state = seed
        func next() -> UInt8 { state = state &* 1_664_525 &+ 1_013_904_223; return UInt8(truncatingIfNeeded: state >> 24) }
        for y in 0..<height {
            for x in 0..<width {
                let a = next()
                image[x, y] = RGBA(next(), next(), next(), a < 40 ? 0 : a > 215 ? 255 : a)
            }
        }
        return image
    }

    /// The vectorised row onto opaque pixels and the per-pixel path onto translucent ones give the
    /// definition's pixels: exactly onto opaque ones (both round the exact mix), within one step onto translucent ones.
    @Test func aBlitMatchesThePerPixelDefinition() {
        let tile = noise(width: 23, height: 9, seed: 7)
        for background in [RGBA(10, 200, 30), RGBA(90, 60, 30, 120), RGBA(0, 0, 0, 0)] {
            var canvas = Canvas(width: 30, height: 12, fill: background)
            var reference = canvas.image
            reference.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<9 {
                    for x in 0..<23 where x + 3 < 30 && y + 2 < 12 {
                        let t = tile[x, y]
                        if t.a > 0 { Canvas.blend(dst, ((y + 2) * 30 + x + 3) * 4, RGBA(t.r, t.g, t.b, 255), Double(t.a) / 255) }
                    }
                }
            }
            canvas.blit(tile, at: (3, 2))
            #expect(maximumDifference(canvas.image, reference) <= (background.a == 255 ? 0 : 1), "on \(background)")
        }
    }

    @Test func aMaskMatchesThePerPixelDefinition() {
        var mask = AlphaMask(width: 40, height: 30)
        mask.addRoundedRect(Rect(x: 5.5, y: 4.25, width: 28, height: 20), radius: 6)
        mask.blur(radius: 2)
        mask.values[0] = .nan
        mask.values[1] = 7
        mask.values[2] = -1
        for background in [RGBA(10, 200, 30), RGBA(90, 60, 30, 120)] {
            var canvas = Canvas(width: 50, height: 40, fill: background)
            var reference = canvas.image
            let color = RGBA(0, 0, 0, 160)
            reference.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<30 {
                    for x in 0..<40 {
                        let a = mask.values[y * 40 + x]
                        if a > 0 { Canvas.blend(dst, ((y + 4) * 50 + x + 6) * 4, color, Double(a)) }
                    }
                }
            }
            canvas.fillMask(mask.values, maskWidth: 40, origin: (6, 4), color: color)
            #expect(maximumDifference(canvas.image, reference) <= 1, "on \(background)")
            #expect(canvas.image != Canvas(width: 50, height: 40, fill: background).image)
        }
    }

    /// NaN, infinite, huge, negative and empty geometry draws nothing wrong and never traps.
    @Test func hostileGeometryNeverTraps() {
        let values: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, 0, -5, 3.5, .greatestFiniteMagnitude]
        var canvas = Canvas(width: 16, height: 12, fill: RGBA(1, 2, 3))
        let gradient = Paint.linear(
            LinearGradient(angle: 37, stops: [.init(offset: 0, color: RGBA(0, 0, 0, 100)), .init(offset: 1, color: RGBA(255, 255, 255))]))
        let source = noise(width: 5, height: 4, seed: 3)
        for v in values {
            for rect in [Rect(x: v, y: 1, width: 8, height: 8), Rect(x: 1, y: 1, width: v, height: v), Rect(x: v, y: v, width: v, height: v)] {
                canvas.fillRoundedRect(rect, radius: v, paint: gradient, opacity: v)
                canvas.fillRoundedRect(rect, radius: 3, paint: .solid(RGBA(9, 9, 9, 200)))
                canvas.strokeRoundedRect(rect, radius: v, lineWidth: v, color: RGBA(200, 0, 0, 128))
                canvas.strokeRoundedRect(rect, radius: 2, lineWidth: 2, color: RGBA(200, 0, 0, 128))
                canvas.drawImage(source, from: Rect(x: v, y: 0, width: 3, height: v), in: rect, opacity: v, tint: RGBA(1, 1, 1))
                canvas.drawImage(source, in: rect, opacity: v)
                var mask = AlphaMask(width: 6, height: 5)
                mask.addRoundedRect(rect, radius: v)
                mask.blur(radius: 2)
            }
        }
        canvas.fillMask([1, .nan, .infinity, -1], maskWidth: 0, origin: (2, 2), color: RGBA(5, 5, 5))
        canvas.fillMask([1, .nan, .infinity, -1], maskWidth: 2, origin: (Int.min, Int.max), color: RGBA(5, 5, 5))
        canvas.fillMask([1, .nan, .infinity, -1], maskWidth: 2, origin: (15, 11), color: RGBA(5, 5, 5))
        canvas.blit(source, at: (Int.max, Int.min))
        canvas.blit(source, at: (-2, 10))
        canvas.blit(RGBAImage(width: 0, height: 0), at: (0, 0))
        #expect(canvas.width == 16)
    }
}
