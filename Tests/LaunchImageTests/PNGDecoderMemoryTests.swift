import Testing
@testable import LaunchImage
import LaunchCore

/// libpng's and zlib's own allocations come from a scratch block each thread keeps and reuses
/// (png_shim.c): these check that reuse never leaks one decode into another.
@Suite struct PNGDecoderMemoryTests {
    /// Every decodable PngSuite file, as bytes.
    static func corpus() throws -> [(path: String, bytes: [UInt8])] {
        try Corpus.entries.filter { $0.expect == "ok" }.map { ($0.path, try Corpus.bytes($0.path)) }
    }

    @Test func decodingOnSeveralThreadsAtOnceGivesWhatDecodingOneByOneGives() async throws {
        let files = try Self.corpus()
        #expect(files.count > 100)
        let expected = try files.map { try PNGDecoder().decode($0.bytes, file: $0.path) }
        // Each task decodes the whole corpus in its own order, so the threads' scratch blocks are
        // reused by files of every colour type, size and interlacing.
        let results = await withTaskGroup(of: [RGBAImage?].self) { group in
            for task in 0..<4 {
                group.addTask {
                    let order = task % 2 == 0 ? Array(files.indices) : files.indices.reversed()
                    var images = [RGBAImage?](repeating: nil, count: files.count)
                    for index in order { images[index] = try? PNGDecoder().decode(files[index].bytes, file: files[index].path) }
                    return images
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 4)
        for images in results {
            for (index, image) in images.enumerated() where image != expected[index] {
                Issue.record("\(files[index].path) decoded differently on another thread")
            }
        }
    }

    @Test func aChunkLargerThanTheScratchBlockStillDecodesAndLeavesTheNextDecodeWhole() throws {
        let image = RGBAImage(width: 64, height: 48, pixels: (0..<64 * 48 * 4).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let plain = try PNGEncoder().encode(image)
        // 600 KB of text: libpng reads the chunk into one buffer, more than the 256 KiB scratch block.
        let text = String(repeating: "launch time ", count: 50_000)
        let big = try #require(PNGTextChunk.inserting(keyword: "Comment", text: text, into: plain))
        #expect(big.count > 600_000)
        #expect(try PNGDecoder().decode(big, file: "big-chunk.png") == image)
        #expect(try PNGDecoder().decode(plain, file: "plain.png") == image)
    }

    @Test func aDecodeThatFailsHalfwayLeavesTheNextDecodeWhole() throws {
        let files = try Self.corpus()
        let wide = RGBAImage(width: 2000, height: 3, pixels: (0..<2000 * 3 * 4).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let wideBytes = try PNGEncoder(filters: .paeth).encode(wide)
        for file in files.prefix(40) {
            let expected = try PNGDecoder().decode(file.bytes, file: file.path)
            // Cut inside the image data: libpng has allocated its structures, zlib its window, when it fails.
            #expect(throws: PNGError.self) { try PNGDecoder().decode(Array(wideBytes.prefix(wideBytes.count - 40)), file: "cut.png") }
            #expect(try PNGDecoder().decode(file.bytes, file: file.path) == expected, "\(file.path)")
        }
        #expect(try PNGDecoder().decode(wideBytes, file: "wide.png") == wide)
    }
}
