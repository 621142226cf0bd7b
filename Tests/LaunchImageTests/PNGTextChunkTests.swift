import Testing
@testable import LaunchImage

@Suite struct PNGTextChunkTests {
    func png() throws -> [UInt8] { try PNGEncoder().encode(RGBAImage(width: 3, height: 2, fill: RGBA(10, 20, 30))) }

    @Test func aTextChunkIsReadBackAndTheImageStillDecodes() throws {
        let original = try png()
        let tagged = try #require(PNGTextChunk.inserting(keyword: "launchprof-key", text: "abc123", into: original))
        #expect(PNGTextChunk.text(of: "launchprof-key", in: tagged) == "abc123")
        #expect(PNGTextChunk.text(of: "other", in: tagged) == nil)
        #expect(PNGTextChunk.text(of: "launchprof-key", in: original) == nil)
        // libpng checks every chunk's CRC: a wrong one would fail the decode.
        #expect(try PNGDecoder().decode(tagged) == (try PNGDecoder().decode(original)))
    }

    @Test func badKeywordsAndNonPNGsAreRefused() throws {
        #expect(PNGTextChunk.inserting(keyword: "", text: "x", into: try png()) == nil)
        #expect(PNGTextChunk.inserting(keyword: String(repeating: "k", count: 80), text: "x", into: try png()) == nil)
        #expect(PNGTextChunk.inserting(keyword: "a\u{0}b", text: "x", into: try png()) == nil)
        #expect(PNGTextChunk.inserting(keyword: "k", text: "x", into: Array("not a png".utf8)) == nil)
    }

    @Test func truncatedAndHostileLengthsGiveNothing() throws {
        let tagged = try #require(PNGTextChunk.inserting(keyword: "k", text: "value", into: try png()))
        for cut in [0, 8, 20, 33, 40, 45] { _ = PNGTextChunk.text(of: "k", in: Array(tagged.prefix(cut))) }
        var hostile = tagged
        hostile.replaceSubrange(33..<37, with: [0xFF, 0xFF, 0xFF, 0xF0])  // the tEXt chunk claims 4 GiB
        #expect(PNGTextChunk.text(of: "k", in: hostile) == nil)
    }

    @Test func theChecksumIsZlibs() {
        #expect(PNGTextChunk.crc32(Array("IEND".utf8)) == 0xAE42_6082)
    }
}
