import Testing
@testable import LaunchImage
import LaunchCore

/// The PngSuite conformance corpus beside the checkout (`../shared/corpus/pngsuite/`).
enum Corpus {
    static let root: String = {
        // Tests/LaunchImageTests/PNGSuiteTests.swift -> package root -> ../shared
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/../shared/corpus/pngsuite"
    }()

    struct Entry: Sendable, CustomTestStringConvertible {
        var path: String
        var expect: String
        var width: Int
        var height: Int
        var testDescription: String { path }
    }

    static let entries: [Entry] = {
        guard let text = try? FileIO.readText(root + "/MANIFEST.tsv") else { return [] }
        var rows: [Entry] = []
        var header = true
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            if header { header = false; continue }
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 4 else { continue }
            rows.append(Entry(path: f[0], expect: f[1], width: Int(f[2]) ?? -1, height: Int(f[3]) ?? -1))
        }
        return rows
    }()

    static func bytes(_ path: String) throws -> [UInt8] { try FileIO.read(root + "/" + path) }
}

@Suite struct PNGSuiteTests {
    @Test func corpusIsPresent() {
        #expect(Corpus.entries.filter { $0.expect == "ok" }.count == 177)
        #expect(Corpus.entries.filter { $0.expect == "reject" }.count == 22)
    }

    @Test(arguments: Corpus.entries.filter { $0.expect == "ok" })
    func okFilesDecodeToTheirSize(entry: Corpus.Entry) throws {
        let image = try PNGDecoder().decode(try Corpus.bytes(entry.path), file: entry.path)
        #expect(image.width == entry.width)
        #expect(image.height == entry.height)
        #expect(image.pixels.count == entry.width * entry.height * 4)
    }

    @Test(arguments: Corpus.entries.filter { $0.expect == "reject" })
    func rejectFilesFailWithAClearError(entry: Corpus.Entry) throws {
        let bytes = try Corpus.bytes(entry.path)
        do {
            _ = try PNGDecoder().decode(bytes, file: entry.path)
            Issue.record("\(entry.path) must be rejected")
        } catch {
            #expect(error.file == entry.path)
            #expect(!error.reason.isEmpty)
            #expect(error.description.hasPrefix("\(entry.path): invalid PNG: "))
        }
    }

    @Test func interlacedAndPlainCopiesDecodeToTheSamePixels() throws {
        for name in ["basn0g08", "basn0g16", "basn2c08", "basn2c16"] {
            let plain = try PNGDecoder().decodeWithFormat(try Corpus.bytes("pngsuite/\(name).png"))
            let interlaced = try PNGDecoder().decodeWithFormat(try Corpus.bytes("pngsuite/i\(name).png"))
            #expect(!plain.format.interlaced)
            #expect(interlaced.format.interlaced)
            #expect(plain.image == interlaced.image, "\(name)")
        }
    }

    @Test func greyIsExpandedToOpaqueRGBA() throws {
        // basn0g01: 1-bit grey, black and white only.
        let image = try PNGDecoder().decode(try Corpus.bytes("pngsuite/basn0g01.png"))
        var seen = Set<RGBA>()
        for y in 0..<image.height { for x in 0..<image.width { seen.insert(image[x, y]) } }
        #expect(seen == [RGBA(0, 0, 0, 255), RGBA(255, 255, 255, 255)])
    }

    @Test func paletteTransparencyBecomesAlpha() throws {
        let (image, format) = try PNGDecoder().decodeWithFormat(try Corpus.bytes("pngsuite/ftp1n3p08.png"))
        #expect(format.colorType == 3)
        let alphas = Set(stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] })
        #expect(alphas.contains(0))
        #expect(alphas.contains(255))
    }

    @Test func sixteenBitSamplesAreStrippedToTheirHighByte() throws {
        // basn0g16 is a 16-bit grey ramp; after stripping, every byte equals the sample's high byte,
        // so R == G == B and the decoded values span the full range.
        let image = try PNGDecoder().decode(try Corpus.bytes("pngsuite/basn0g16.png"))
        var reds: [UInt8] = []
        var grey = true
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y]
                reds.append(p.r)
                if p.r != p.g || p.g != p.b { grey = false }
            }
        }
        #expect(grey)
        #expect(reds.min() == 0)
        #expect((reds.max() ?? 0) > 200)
    }
}
