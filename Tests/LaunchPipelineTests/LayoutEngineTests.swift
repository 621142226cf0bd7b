import Testing
@testable import LaunchPipeline

@Suite struct LayoutEngineTests {
    func spec(
        rows: Int = 5, columns: Int = 4, insets: EdgeInsets = EdgeInsets(top: 20, right: 0, bottom: 0, left: 0),
        margin: Double = 10, spacing: Double = 8, displayHeight: Double = 96, displaySpacing: Double = 10,
        minKeyHeight: Double = 44, maxKeyHeight: Double = 80, maxKeyWidth: Double = .greatestFiniteMagnitude,
        equalSize: Bool = false, keys: [KeySpec]
    ) -> LayoutSpec {
        LayoutSpec(
            orientation: .portrait, rows: rows, columns: columns, insets: insets, margin: margin, spacing: spacing,
            displayHeight: displayHeight, displaySpacing: displaySpacing, minKeyWidth: 0, maxKeyWidth: maxKeyWidth,
            minKeyHeight: minKeyHeight, maxKeyHeight: maxKeyHeight, equalSize: equalSize, keys: keys)
    }

    func key(_ row: Int, _ column: Int, rowSpan: Int = 1, columnSpan: Int = 1) -> KeySpec {
        KeySpec(label: "k", icon: nil, style: "s", row: row, column: column, rowSpan: rowSpan, columnSpan: columnSpan)
    }

    @Test func defaultPortraitFramesMatchHandComputedValues() throws {
        // Content: x 10, y 30 (20 inset + 10 margin), 300 × 440.
        // Grid height 440 - 96 - 10 = 334; cell height (334 - 4·8) / 5 = 60.4; cell width (300 - 3·8) / 4 = 69.
        // Grid top 30 + 440 - 334 = 136; the display fills 30…126.
        let layout = try LayoutEngine.build(
            spec(keys: [key(0, 0), key(4, 0, columnSpan: 2), key(2, 3)]),
            portraitWidth: 320, portraitHeight: 480)
        #expect(layout.display == Rect(x: 10, y: 30, width: 300, height: 96))
        #expect(layout.cellWidth == 69)
        #expect(abs(layout.cellHeight - 60.4) < 1e-9)
        #expect(layout.keys[0].frame == Rect(x: 10, y: 136, width: 69, height: layout.cellHeight))
        // Row 4: 136 + 4 · (60.4 + 8) = 409.6; two columns: 2 · 69 + 8 = 146.
        #expect(abs(layout.keys[1].frame.y - 409.6) < 1e-9)
        #expect(layout.keys[1].frame.width == 146)
        // Column 3: 10 + 3 · 77 = 241; row 2: 136 + 2 · 68.4 = 272.8.
        #expect(layout.keys[2].frame.x == 241)
        #expect(abs(layout.keys[2].frame.y - 272.8) < 1e-9)
        #expect(layout.viewCount == 4)
    }

    @Test func maxKeyHeightGivesTheRestToTheDisplay() throws {
        // Cell height would be 60.4 but is capped at 50: grid height 5·50 + 4·8 = 282, top 470 - 282 = 188.
        let layout = try LayoutEngine.build(spec(maxKeyHeight: 50, keys: [key(0, 0)]), portraitWidth: 320, portraitHeight: 480)
        #expect(layout.cellHeight == 50)
        #expect(layout.keys[0].frame.y == 188)
        #expect(layout.display.height == 188 - 10 - 30)
    }

    @Test func equalSizeMakesSquareCellsAndCentresTheGrid() throws {
        // Cells 69 × 60.4 become 60.4 × 60.4; grid width 4·60.4 + 24 = 265.6, centred in 300: x = 10 + 17.2.
        let layout = try LayoutEngine.build(spec(equalSize: true, keys: [key(0, 0)]), portraitWidth: 320, portraitHeight: 480)
        #expect(layout.cellWidth == layout.cellHeight)
        #expect(abs(layout.keys[0].frame.x - 27.2) < 1e-9)
    }

    @Test func maxKeyWidthCentresTheGrid() throws {
        let layout = try LayoutEngine.build(spec(maxKeyWidth: 50, keys: [key(0, 0)]), portraitWidth: 320, portraitHeight: 480)
        // Grid width 4·50 + 24 = 224, centred in 300 at 10: x = 10 + 38.
        #expect(layout.keys[0].frame.x == 48)
        #expect(layout.keys[0].frame.width == 50)
    }

    @Test func landscapeSwapsTheScreen() throws {
        var s = spec(rows: 2, columns: 6, insets: .zero, minKeyHeight: 0, keys: [key(1, 5)])
        s.orientation = .landscape
        let layout = try LayoutEngine.build(s, portraitWidth: 320, portraitHeight: 480)
        #expect(layout.screenWidth == 480)
        #expect(layout.screenHeight == 320)
        #expect(layout.keys[0].frame.maxX == 470)
        #expect(layout.keys[0].frame.maxY == 310)
    }

    @Test func aScreenTooSmallForTheMinimumIsAnError() {
        do {
            _ = try LayoutEngine.build(spec(keys: [key(0, 0)]), portraitWidth: 320, portraitHeight: 300)
            Issue.record("keys below the minimum height must fail")
        } catch {
            #expect(
                error.description == "portrait layout: keys would be 24.4 pt tall, below the minimum 44 pt: the screen is too short for 5 rows and the display")
        }
    }

    @Test func integralRoundsEdges() {
        #expect(Rect(x: 10.4, y: 136.6, width: 69.2, height: 60.4).integral == Rect(x: 10, y: 137, width: 70, height: 60))
    }
}
