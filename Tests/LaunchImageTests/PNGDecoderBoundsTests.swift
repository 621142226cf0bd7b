import CPNGShim
import Foundation
import Testing
@testable import LaunchImage

/// What one decode may allocate (png_shim.c): a chunk's declared length must fit in the file, and
/// libpng's own allocations stay within a budget and are all given back, whether the decode
/// succeeds or fails.
@Suite struct PNGDecoderBoundsTests {
    /// The input `make fuzz` ran out of memory on (Tests/Fuzz/Regressions/png/): a 32×32 palette
    /// image whose third chunk, sPLT, declares 1,946,157,059 bytes in a 65-byte file. libpng allocated
    /// the declared length before reading the data.
    static let declaresTwoGigabytes = [UInt8](
        Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAACAAAAAgAgMAAAAOFJJnAAAABGdBTUEAAYagMFVJbnQAAANzUExUGJVjtWtgoII=")!)

    /// libpng's allocations at the end of the last decode on this thread, and at most during it.
    static func lastDecodeMemory() -> (live: Int, peak: Int) {
        var live = 0, peak = 0
        lp_png_last_decode_memory(&live, &peak)
        return (live, peak)
    }

    /// The offset of the first chunk of `type` in `png`, walking the chunks from the signature.
    static func firstChunk(_ type: String, in png: [UInt8]) -> Int? {
        var offset = 8
        while offset + 12 <= png.count {
            if Array(png[offset + 4..<offset + 8]) == Array(type.utf8) { return offset }
            offset += 12 + (Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3]))
        }
        return nil
    }

    static func sample(width: Int = 40, height: Int = 30) throws -> (image: RGBAImage, bytes: [UInt8]) {
        let image = RGBAImage(width: width, height: height, pixels: (0..<width * height * 4).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 7) })
        return (image, try PNGEncoder(filters: .paeth).encode(image))
    }

    @Test func aChunkLongerThanTheRestOfTheFileIsRefusedBeforeLibpngAllocatesIt() throws {
        let error = try #require(throws: PNGError.self) { try PNGDecoder().decode(Self.declaresTwoGigabytes, file: "splt.png") }
        #expect(error.file == "splt.png")
        #expect(error.reason.hasPrefix("chunk 'sPLT' at byte 49 declares 1946157059 bytes of data, more than the 8 bytes left"), "\(error.reason)")
    }

    @Test func everyDeclaredLengthIsCheckedAgainstTheFileWhateverTheChunk() throws {
        let bytes = try Self.sample().bytes
        // The IHDR chunk's length, then the first IDAT's: each made larger than the file.
        let idat = try #require(Self.firstChunk("IDAT", in: bytes))
        for (offset, name) in [(8, "IHDR"), (idat, "IDAT")] {
            var corrupt = bytes
            corrupt.replaceSubrange(offset..<offset + 4, with: [0x10, 0, 0, 0])
            let error = try #require(throws: PNGError.self) { try PNGDecoder().decode(corrupt, file: "long.png") }
            #expect(error.reason.hasPrefix("chunk '\(name)' at byte \(offset) declares 268435456 bytes"), "\(error.reason)")
        }
    }

    @Test func aDecodeCutAtAnyByteFailsAndGivesBackEverythingLibpngAllocated() throws {
        let (image, bytes) = try Self.sample()
        for cut in 8..<bytes.count - 12 {
            // Every prefix that reaches libpng fails somewhere: in a header, inside the image data, at the end.
            #expect(throws: PNGError.self) { try PNGDecoder().decode(Array(bytes.prefix(cut)), file: "cut.png") }
            #expect(Self.lastDecodeMemory().live == 0, "cut at \(cut) of \(bytes.count)")
        }
        #expect(try PNGDecoder().decode(bytes, file: "whole.png") == image)
        #expect(Self.lastDecodeMemory().live == 0)
    }

    @Test func ancillaryChunksAreSkippedNotKeptSoTheyCostNoMemory() throws {
        let (image, plain) = try Self.sample()
        // 100 text chunks of 60 KB each: libpng kept every one until the decode ended (6 MB, past the
        // budget of a 64 KiB chunk limit: 4 × 64 KiB + 4 MiB), so the image data then found no memory.
        // They are skipped unread now, like every ancillary chunk but tRNS.
        var bytes = plain
        for index in 0..<100 {
            bytes = try #require(PNGTextChunk.inserting(keyword: "Comment", text: String(repeating: "\(index % 10)", count: 60_000), into: bytes))
        }
        let limits = PNGDecoder.Limits(maxWidth: 8192, maxHeight: 8192, maxPixelBytes: 256 << 20, maxChunkBytes: 64 << 10)
        #expect(try PNGDecoder(limits: limits).decode(bytes, file: "texts.png") == image)
        let memory = Self.lastDecodeMemory()
        #expect(memory.live == 0)
        #expect(memory.peak <= 64 << 10, "peak \(memory.peak)")
    }
}
