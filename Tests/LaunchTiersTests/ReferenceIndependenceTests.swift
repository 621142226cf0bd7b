import Foundation
import Testing
@testable import LaunchTiers
import LaunchCore

/// Calibrated tier factors must not change when only the app's code changes (issue 16): the reference
/// workloads live in CTierReference, plain C that shares nothing with the app, and are frozen.
@Suite struct ReferenceIndependenceTests {
    /// The package's root, from this file's path (Tests/LaunchTiersTests/…).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The names in `.target(name: "NAME", dependencies: [...]` of Package.swift.
    static func dependencies(of target: String) throws -> [String] {
        let manifest = try String(contentsOfFile: "\(root)/Package.swift", encoding: .utf8)
        let marker = ".target(name: \"\(target)\", dependencies: ["
        let start = try #require(manifest.range(of: marker), "Package.swift has no target \(target) with dependencies")
        let rest = manifest[start.upperBound...]
        let end = try #require(rest.firstIndex(of: "]"))
        return rest[..<end].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \n\"")) }.filter { !$0.isEmpty }
    }

    @Test func tiersDependOnNoAppModule() throws {
        let tiers = try Self.dependencies(of: "LaunchTiers")
        #expect(Set(tiers) == ["LaunchCore", "CTierReference"])
        for app in ["LaunchPipeline", "LaunchImage", "CPNGShim", "LaunchApp"] {
            #expect(!tiers.contains(app), "LaunchTiers must not depend on the app's \(app)")
        }
        // The C workloads use libpng directly, not the app's PNG shim.
        #expect(try Self.dependencies(of: "CTierReference") == ["CLibPNG"])
    }

    @Test func tiersSourcesImportNoAppCode() throws {
        let directories = ["Sources/LaunchTiers", "Sources/CTierReference", "Sources/CTierReference/include"]
        for directory in directories {
            for name in try FileManager.default.contentsOfDirectory(atPath: "\(Self.root)/\(directory)")
            where name.hasSuffix(".swift") || name.hasSuffix(".c") || name.hasSuffix(".h") {
                let text = try String(contentsOfFile: "\(Self.root)/\(directory)/\(name)", encoding: .utf8)
                for forbidden in ["import LaunchPipeline", "import LaunchImage", "import CPNGShim", "png_shim.h"] {
                    #expect(!text.contains(forbidden), "\(directory)/\(name) uses the app's code (\(forbidden))")
                }
            }
        }
    }

    /// The workloads' outputs, pinned: a change to any of them fails here, and means re-deriving the
    /// built-in tiers' reference seconds (docs/tiers.md), since it changes what every calibrated tier means.
    @Test func referenceWorkloadsAreFrozen() throws {
        let workloads = try ReferenceWorkloads()
        let digest = workloads.cpuDigest().map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        #expect(digest == "d20eb73d08fa31a8df8aeac7d1ddfa98c5b44f2e0bb82873589a322da1573e0d")
        #expect(try workloads.decodedChecksum() == 41_775_043)
        let canvas = workloads.drawnCanvas()
        #expect(canvas.count == 256 * 256 * 4)
        #expect(canvas.reduce(0) { $0 + UInt64($1) } == 36_629_412)
        // Drawn twice, the same pixels: the canvas is cleared, not drawn over.
        #expect(workloads.drawnCanvas() == canvas)
        // io (version 2): 35 entries listed, the 32 text files' scans, the data files' last bytes.
        #expect(try workloads.ioChecksum() == 20_162)
    }
}
