import Testing
@testable import LaunchPipeline
import LaunchImage

@Suite struct CanvasTests {
    let black = RGBA(0, 0, 0)
    let white = RGBA(255, 255, 255)

    @Test func filledRectCoversExactlyItsPixels() {
        var canvas = Canvas(width: 10, height: 10, fill: black)
        canvas.fillRoundedRect(Rect(x: 2, y: 3, width: 4, height: 5), radius: 0, paint: .solid(RGBA(255, 0, 0)))
        #expect(canvas.image[2, 3] == RGBA(255, 0, 0))
        #expect(canvas.image[5, 7] == RGBA(255, 0, 0))
        #expect(canvas.image[1, 3] == black)
        #expect(canvas.image[6, 3] == black)
        #expect(canvas.image[2, 8] == black)
    }

    @Test func halfCoveredEdgePixelIsBlendedHalfway() {
        var canvas = Canvas(width: 4, height: 1, fill: black)
        canvas.fillRoundedRect(Rect(x: 0, y: 0, width: 1.5, height: 1), radius: 0, paint: .solid(white))
        #expect(canvas.image[0, 0] == white)
        #expect(canvas.image[1, 0] == RGBA(128, 128, 128))
        #expect(canvas.image[2, 0] == black)
    }

    @Test func roundedCornersStayEmpty() {
        var canvas = Canvas(width: 40, height: 40, fill: black)
        canvas.fillRoundedRect(Rect(x: 0, y: 0, width: 40, height: 40), radius: 12, paint: .solid(white))
        #expect(canvas.image[0, 0] == black)
        #expect(canvas.image[39, 39] == black)
        #expect(canvas.image[20, 20] == white)
        #expect(canvas.image[20, 0] == white)
    }

    @Test func srcOverCompositingOfHalfTransparentWhite() {
        var canvas = Canvas(width: 2, height: 2, fill: black)
        canvas.fillRoundedRect(Rect(x: 0, y: 0, width: 2, height: 2), radius: 0, paint: .solid(RGBA(255, 255, 255, 128)))
        #expect(canvas.image[1, 1] == RGBA(128, 128, 128, 255))
        // Onto a transparent pixel the colour keeps its own alpha.
        var clear = Canvas(width: 1, height: 1)
        clear.fillRoundedRect(Rect(x: 0, y: 0, width: 1, height: 1), radius: 0, paint: .solid(RGBA(10, 20, 30, 64)))
        #expect(clear.image[0, 0] == RGBA(10, 20, 30, 64))
    }

    @Test func verticalGradientRunsTopToBottom() {
        var canvas = Canvas(width: 1, height: 256, fill: black)
        let gradient = LinearGradient(angle: 90, stops: [.init(offset: 0, color: black), .init(offset: 1, color: white)])
        canvas.fillRoundedRect(Rect(x: 0, y: 0, width: 1, height: 256), radius: 0, paint: .linear(gradient))
        #expect(canvas.image[0, 0].r <= 1)
        #expect(canvas.image[0, 255].r >= 254)
        #expect((126...129).contains(canvas.image[0, 128].r))
        var increasing = true
        for y in 1..<256 where canvas.image[0, y].r < canvas.image[0, y - 1].r { increasing = false }
        #expect(increasing)
    }

    @Test func gradientStopsInterpolate() {
        let g = LinearGradient(angle: 0, stops: [.init(offset: 1, color: white), .init(offset: 0, color: black)])
        #expect(g.stops.map(\.offset) == [0, 1])
        #expect(g.color(at: 0.5) == RGBA(128, 128, 128))
        #expect(g.color(at: -1) == black)
        #expect(g.color(at: 2) == white)
    }

    @Test func gradientLookupTablesHoldTheColoursOfEachPosition() {
        let stopSets: [[LinearGradient.Stop]] = [
            [.init(offset: 0, color: black), .init(offset: 1, color: white)],
            [.init(offset: 0.3, color: RGBA(200, 10, 40, 128))],
            [.init(offset: 0.2, color: black), .init(offset: 0.2, color: white), .init(offset: 0.7, color: RGBA(9, 99, 199, 7))],
            [.init(offset: -0.5, color: white), .init(offset: 0.5, color: RGBA(1, 2, 3)), .init(offset: 0.9, color: black), .init(offset: 1.5, color: white)]
        ]
        for stops in stopSets {
            let g = LinearGradient(angle: 30, stops: stops)
            for count in [2, 3, 256] {
                #expect(g.lookupTable(count: count) == (0..<count).map { g.color(at: Double($0) / Double(count - 1)) })
            }
        }
    }

    @Test func imagesFilledWithAColourHoldItInEveryPixel() {
        let colour = RGBA(1, 2, 3, 4)
        let image = RGBAImage(width: 3, height: 2, fill: colour)
        #expect(image.pixels == [UInt8](repeating: 0, count: 6).flatMap { _ in [1, 2, 3, 4] })
        #expect(RGBAImage(width: 0, height: 5, fill: colour).pixels.isEmpty)
    }

    @Test func strokeColoursTheEdgeOnly() {
        var canvas = Canvas(width: 20, height: 20, fill: black)
        canvas.strokeRoundedRect(Rect(x: 0, y: 0, width: 20, height: 20), radius: 0, lineWidth: 2, color: white)
        #expect(canvas.image[0, 10] == white)
        #expect(canvas.image[1, 10] == white)
        #expect(canvas.image[2, 10] == black)
        #expect(canvas.image[10, 10] == black)
    }

    @Test func bilinearScalingInterpolatesBetweenTexels() {
        var source = RGBAImage(width: 2, height: 1)
        source[0, 0] = black
        source[1, 0] = white
        var canvas = Canvas(width: 4, height: 1, fill: RGBA(0, 0, 255))
        canvas.drawImage(source, in: Rect(x: 0, y: 0, width: 4, height: 1))
        // Sample positions -0.25, 0.25, 0.75, 1.25 -> 0, 0.25, 0.75, 1.
        #expect(canvas.image[0, 0] == black)
        #expect(canvas.image[1, 0] == RGBA(64, 64, 64))
        #expect(canvas.image[2, 0] == RGBA(191, 191, 191))
        #expect(canvas.image[3, 0] == white)
    }

    @Test func tintUsesSourceAlphaAsCoverage() {
        var glyph = RGBAImage(width: 1, height: 1)
        glyph[0, 0] = RGBA(255, 255, 255, 255)
        var canvas = Canvas(width: 1, height: 1, fill: black)
        canvas.drawImage(glyph, in: Rect(x: 0, y: 0, width: 1, height: 1), tint: RGBA(255, 0, 0))
        #expect(canvas.image[0, 0] == RGBA(255, 0, 0))
    }

    @Test func blitCompositesATile() {
        var tile = RGBAImage(width: 2, height: 1)
        tile[0, 0] = RGBA(255, 0, 0, 255)
        tile[1, 0] = RGBA(0, 0, 0, 0)
        var canvas = Canvas(width: 3, height: 1, fill: white)
        canvas.blit(tile, at: (1, 0))
        #expect(canvas.image[0, 0] == white)
        #expect(canvas.image[1, 0] == RGBA(255, 0, 0))
        #expect(canvas.image[2, 0] == white)
    }

    @Test func drawingOutsideTheCanvasIsClipped() {
        var canvas = Canvas(width: 4, height: 4, fill: black)
        canvas.fillRoundedRect(Rect(x: -10, y: -10, width: 12, height: 12), radius: 0, paint: .solid(white))
        canvas.fillRoundedRect(Rect(x: 100, y: 100, width: 5, height: 5), radius: 0, paint: .solid(white))
        #expect(canvas.image[1, 1] == white)
        #expect(canvas.image[2, 2] == black)
        #expect(canvas.pixelsDrawn == 9)
    }

    @Test func blurSpreadsAndConservesCoverage() {
        // Room on every side (3 passes × radius 2 = 6 pixels), so nothing falls off the edges.
        var mask = AlphaMask(width: 21, height: 21)
        mask.values[10 * 21 + 10] = 1
        mask.blur(radius: 2)
        #expect(mask.values[10 * 21 + 10] < 1)
        #expect(mask.values[10 * 21 + 8] > 0)
        #expect(mask.values[8 * 21 + 10] > 0)
        #expect(mask.values[0] == 0)
        let total = mask.values.reduce(0, +)
        #expect(abs(total - 1) < 1e-4)
    }
}
