import Foundation
import Testing
@testable import LaunchPipeline
import LaunchCore
import LaunchImage
import LaunchManifest

/// Malformed and hostile inputs must give errors, never a crash or a hang. Each test feeds hundreds of
/// deterministic mutations of a real fixture (the same seed every run, so a failure reproduces).
@Suite struct RobustnessTests {
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    }

    static let tokens: [[UInt8]] = [
        "<", ">", "\"", "&", "&amp;", "]]>", "<!--", "1e308", "-1", "0", "NaN", "99999999999999999999",
        "100000", "-100000", "#", "\u{0}", "é", "\u{FFFF}", "<!DOCTYPE x>", "/>"
    ].map { Array($0.utf8) }

    /// One random mutation: flip, delete, duplicate or insert.
    static func mutate(_ bytes: [UInt8], _ g: inout Generator) -> [UInt8] {
        var out = bytes
        guard !out.isEmpty else { return tokens[g.below(tokens.count)] }
        let i = g.below(out.count)
        switch g.below(5) {
        case 0: out[i] ^= UInt8(truncatingIfNeeded: 1 << g.below(8))
        case 1: out.removeSubrange(i..<min(out.count, i + 1 + g.below(16)))
        case 2: out.insert(contentsOf: out[i..<min(out.count, i + 1 + g.below(32))], at: g.below(out.count))
        case 3: out.insert(contentsOf: tokens[g.below(tokens.count)], at: i)
        default: out = Array(out.prefix(i))
        }
        return out
    }

    @Test func mutatedThemesNeverCrashTheParser() throws {
        let original = try FileIO.read(Paths.defaultTheme)
        var g = Generator(state: 1)
        var rejected = 0
        for _ in 0..<600 {
            var bytes = original
            for _ in 0..<(1 + g.below(3)) { bytes = Self.mutate(bytes, &g) }
            do { _ = try ThemeParser.parse(bytes, file: "t.xml") } catch { rejected += 1 }
        }
        #expect(rejected > 100)
    }

    @Test func extremeNumbersInAThemeNeverCrashTheLaunch() throws {
        let dir = try Paths.copyOfDefaultFixture()
        let original = try FileIO.readText("\(dir)/theme.xml")
        let attributes = [
            "corner-radius", "border-width", "shadow-blur", "padding", "label-size", "text-size", "margin", "spacing",
            "display-height", "display-spacing", "max-key-height", "angle", "size", "texture-opacity"
        ]
        var launched = 0
        for attribute in attributes {
            for value in ["100000", "-100000", "0", "0.0001", "64", "1e5"] {
                let mutated = original.replacingOccurrences(
                    of: #"\#(attribute)="[^"]*""#, with: #"\#(attribute)="\#(value)""#, options: .regularExpression)
                try FileIO.writeAtomically(mutated, to: "\(dir)/theme.xml")
                let recorder = PhaseRecorder(clock: .startNow())
                let pipeline = Pipeline(manifest: try ManifestLoader.load(path: "\(dir)/manifest.json"), recorder: recorder)
                pipeline.snapshotPath = nil
                do {
                    try pipeline.launch()
                    launched += 1
                } catch {
                    #expect(!"\(error)".isEmpty)
                }
            }
        }
        #expect(launched > 10)
    }

    @Test func mutatedManifestsNeverCrashTheLoader() throws {
        let original = try FileIO.read(Paths.defaultManifest)
        var g = Generator(state: 2)
        for _ in 0..<600 {
            var bytes = original
            for _ in 0..<(1 + g.below(3)) { bytes = Self.mutate(bytes, &g) }
            do { _ = try ManifestLoader.parse(bytes, path: "m.json") } catch { #expect(!error.description.isEmpty) }
        }
    }

    @Test func mutatedDataFilesNeverCrashTheReader() throws {
        let original = try FileIO.read(Paths.packageRoot + "/Fixtures/default/conversions.xml")
        var g = Generator(state: 3)
        for _ in 0..<400 {
            var bytes = original
            for _ in 0..<(1 + g.below(3)) { bytes = Self.mutate(bytes, &g) }
            _ = try? DataTable.parse(bytes, file: "d.xml")
        }
    }

    @Test func mutatedPNGsAreDecodedOrRejectedWithAReason() throws {
        let originals = try ["icon-backspace.png", "texture.png", "font-label.png"].map {
            try FileIO.read(Paths.packageRoot + "/Fixtures/default/assets/" + $0)
        }
        var g = Generator(state: 4)
        var rejected = 0
        for round in 0..<450 {
            var bytes = originals[round % originals.count]
            for _ in 0..<(1 + g.below(4)) { bytes = Self.mutate(bytes, &g) }
            do {
                let image = try PNGDecoder().decode(bytes, file: "m.png")
                #expect(image.pixels.count == image.width * image.height * 4)
            } catch {
                rejected += 1
                #expect(!error.reason.isEmpty)
            }
        }
        #expect(rejected > 100)
    }

    @Test func randomProtocolLinesAreErrorsNotCrashes() {
        var g = Generator(state: 5)
        let verbs = ["launchprof 1", "main", "begin", "end", "mark", "count", "stats", "deferred", "launched", "peak", "done", "x-y"]
        let fields = ["-", "0", "1", "18446744073709551615", "18446744073709551616", "-5", "cpu", "gpu", "a b", "rss=1", "host=x", "=", ""]
        for _ in 0..<300 {
            var parser = ProtocolParser(spawnReading: 1000)
            for _ in 0..<(1 + g.below(12)) {
                var line = verbs[g.below(verbs.count)]
                for _ in 0..<g.below(5) { line += " " + fields[g.below(fields.count)] }
                do { try parser.consume(Substring(line)) } catch { break }
            }
            _ = parser.run(index: 1, pid: nil)
        }
    }
}
