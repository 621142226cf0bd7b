import Foundation
import LaunchprofTestSupport
import Testing

/// The CLI knows the built-in app only through LaunchManifest (docs/architecture.md): neither its
/// target in Package.swift nor any of its files may name an app module again.
@Suite struct ModuleBoundaryTests {
    /// The app's own modules, and the C shims only they use.
    static let appModules = ["LaunchPipeline", "LaunchApp", "LaunchImage", "CPNGShim", "CXMLShim"]

    /// The dependency list of the `LaunchprofCLI` target, as Package.swift spells it.
    static func cliDependencies() throws -> String {
        let package = try String(contentsOfFile: BuiltProducts.source("Package.swift"), encoding: .utf8)
        let start = try #require(package.range(of: "name: \"LaunchprofCLI\""), "Package.swift has no LaunchprofCLI target")
        let rest = package[start.upperBound...]
        let end = try #require(rest.range(of: "]"), "the LaunchprofCLI target's dependencies do not end")
        return String(rest[..<end.upperBound])
    }

    @Test func theCLITargetDependsOnNoAppModule() throws {
        let dependencies = try Self.cliDependencies()
        #expect(dependencies.contains("\"LaunchManifest\""), "\(dependencies)")
        for module in Self.appModules {
            #expect(!dependencies.contains("\"\(module)\""), "LaunchprofCLI depends on \(module) again: \(dependencies)")
        }
    }

    @Test func noCLIFileImportsAnAppModule() throws {
        let directory = BuiltProducts.source("Sources/LaunchprofCLI")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20, "Sources/LaunchprofCLI holds \(files.count) Swift files")
        for file in files {
            let text = try String(contentsOfFile: "\(directory)/\(file)", encoding: .utf8)
            let imports = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.contains("import ") }
            for module in Self.appModules {
                #expect(!imports.contains { $0.hasSuffix("import \(module)") }, "Sources/LaunchprofCLI/\(file) imports \(module)")
            }
        }
    }
}
