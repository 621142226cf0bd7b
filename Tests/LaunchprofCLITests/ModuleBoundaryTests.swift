import Foundation
import LaunchprofTestSupport
import Testing

/// The CLI knows the built-in app only through LaunchManifest (docs/architecture.md): neither its
/// target in Package.swift nor any of its files may name an app module again.
@Suite struct ModuleBoundaryTests {
    /// The app's own modules, and the C shims only they use.
    static let appModules = ["LaunchPipeline", "LaunchApp", "LaunchImage", "CPNGShim", "CXMLShim"]

    /// The dependency list of the target `name`, as Package.swift spells it.
    static func dependencies(of name: String) throws -> String {
        let package = try String(contentsOfFile: BuiltProducts.source("Package.swift"), encoding: .utf8)
        let start = try #require(package.range(of: "name: \"\(name)\""), "Package.swift has no \(name) target")
        let rest = package[start.upperBound...]
        let end = try #require(rest.range(of: "]"), "the \(name) target's dependencies do not end")
        return String(rest[..<end.upperBound])
    }

    /// What the CLI knows of the app stays below the app: LaunchManifest needs only LaunchCore.
    @Test func theManifestModuleDependsOnTheCoreAlone() throws {
        let dependencies = try Self.dependencies(of: "LaunchManifest")
        #expect(dependencies.hasSuffix("dependencies: [\"LaunchCore\"]"), "\(dependencies)")
    }

    @Test func theCLITargetDependsOnNoAppModule() throws {
        let dependencies = try Self.dependencies(of: "LaunchprofCLI")
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
