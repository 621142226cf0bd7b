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
        (Rect(x: 50, y: 40, width: 30, height: 30), 2.0),
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
}
