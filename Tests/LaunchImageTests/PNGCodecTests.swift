import Testing
@testable import LaunchImage

@Suite struct PNGCodecTests {
    func sample() -> RGBAImage {
        var image = RGBAImage(width: 7, height: 5)
        for y in 0..<5 { for x in 0..<7 { image[x, y] = RGBA(UInt8(x * 30), UInt8(y * 50), UInt8((x + y) * 10), UInt8(255 - x * 20)) } }
        return image
    }

    @Test func encodeThenDecodeGivesTheSamePixels() throws {
        let bytes = try PNGEncoder().encode(sample())
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(try PNGDecoder().decode(bytes) == sample())
    }

    /// An opaque copy of ``sample()``.
    func opaqueSample() -> RGBAImage {
        var image = sample()
        for y in 0..<5 { for x in 0..<7 { image[x, y].a = 255 } }
        return image
    }

    @Test func anOpaqueImageIsWrittenAsRGBAndReadBackWhole() throws {
        let bytes = try PNGEncoder().encode(opaqueSample())
        #expect(bytes[25] == 2)  // IHDR colour type: 2 = RGB
        #expect(try PNGDecoder().decode(bytes) == opaqueSample())
        #expect(try PNGEncoder().encode(sample())[25] == 6)  // translucent pixels keep RGBA
    }

    @Test(arguments: [PNGEncoder.Filters.sub, .up, .none, .paeth, .all], [PNGEncoder.Strategy.standard, .filtered, .runLength])
    func everySettingRoundTrips(filters: PNGEncoder.Filters, strategy: PNGEncoder.Strategy) throws {
        for level in [0, 1, 6, 9] {
            let encoder = PNGEncoder(compressionLevel: level, filters: filters, strategy: strategy)
            #expect(try PNGDecoder().decode(try encoder.encode(sample())) == sample())
            #expect(try PNGDecoder().decode(try encoder.encode(opaqueSample())) == opaqueSample())
        }
    }

    @Test func encodingIsDeterministic() throws {
        #expect(try PNGEncoder().encode(sample()) == (try PNGEncoder().encode(sample())))
    }

    @Test func garbageIsNotAPNG() {
        #expect(throws: PNGError.undecodable(file: "junk.png", reason: "not a PNG file (bad signature)")) {
            try PNGDecoder().decode(Array("hello, world".utf8), file: "junk.png")
        }
        #expect(throws: PNGError.undecodable(file: "empty.png", reason: "not a PNG file (bad signature)")) {
            try PNGDecoder().decode([], file: "empty.png")
        }
    }

    @Test func truncatedFileIsAClearError() throws {
        let bytes = try PNGEncoder().encode(sample())
        do {
            _ = try PNGDecoder().decode(Array(bytes.prefix(bytes.count / 2)), file: "cut.png")
            Issue.record("a truncated PNG must fail")
        } catch {
            #expect(error.file == "cut.png")
            #expect(!error.reason.isEmpty)
        }
    }

    @Test func limitsRefuseLargeImagesBeforeAllocating() throws {
        let bytes = try PNGEncoder().encode(sample())
        let tight = PNGDecoder(limits: .init(maxWidth: 4, maxHeight: 100, maxPixelBytes: 1 << 20, maxChunkBytes: 1 << 16))
        #expect(throws: PNGError.self) { try tight.decode(bytes) }
        let memory = PNGDecoder(limits: .init(maxWidth: 100, maxHeight: 100, maxPixelBytes: 100, maxChunkBytes: 1 << 16))
        do {
            _ = try memory.decode(bytes, file: "big.png")
            Issue.record("the memory limit must refuse a 7x5 image at 100 bytes")
        } catch {
            #expect(error.reason.contains("memory limit"))
        }
    }

    @Test func hostileHeaderClaimingAGiantImageIsRefused() throws {
        // A valid signature and IHDR for 1,000,000 × 1,000,000 RGBA pixels, then nothing.
        var bytes = try PNGEncoder().encode(RGBAImage(width: 1, height: 1))
        // IHDR data starts at byte 16: width (4 bytes) and height (4 bytes), then the CRC at 29..32.
        let giant: [UInt8] = [0x00, 0x0F, 0x42, 0x40]
        bytes.replaceSubrange(16..<20, with: giant)
        bytes.replaceSubrange(20..<24, with: giant)
        let crc = crc32(Array(bytes[12..<29]))
        bytes.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xff), UInt8(crc >> 8 & 0xff), UInt8(crc & 0xff)])
        do {
            _ = try PNGDecoder().decode(bytes, file: "giant.png")
            Issue.record("a 10^12-pixel header must be refused")
        } catch {
            #expect(error.file == "giant.png")
            #expect(!error.reason.isEmpty)
        }
    }

    /// The decoder reads the IHDR size itself to decode into the image's array; libpng still checks it.
    @Test func theHeaderTheDecoderReadsIsStillCheckedByLibpng() throws {
        var bytes = try PNGEncoder().encode(sample())
        bytes[19] = 8  // width 7 → 8, CRC left as it was
        #expect(throws: PNGError.self) { try PNGDecoder().decode(bytes, file: "crc.png") }
        // Exactly at the memory limit decodes (straight into the array); one byte under refuses.
        let good = try PNGEncoder().encode(sample())
        let exact = PNGDecoder(limits: .init(maxWidth: 7, maxHeight: 5, maxPixelBytes: 7 * 5 * 4, maxChunkBytes: 1 << 16))
        #expect(try exact.decode(good) == sample())
        let under = PNGDecoder(limits: .init(maxWidth: 7, maxHeight: 5, maxPixelBytes: 7 * 5 * 4 - 1, maxChunkBytes: 1 << 16))
        #expect(throws: PNGError.self) { try under.decode(good) }
    }

    @Test func cacheDecodesEachPathOnce() throws {
        let cache = ImageCache()
        var loads = 0
        for path in ["a.png", "b.png", "a.png", "a.png"] {
            _ = cache.image(for: path) { _ in
                loads += 1; return RGBAImage(width: 2, height: 2)
            }
        }
        #expect(loads == 2)
        #expect(cache.misses == 2)
        #expect(cache.hits == 2)
        #expect(cache.byteCount == 32)
    }

    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
