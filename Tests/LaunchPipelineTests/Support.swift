import LaunchCore
import LaunchprofTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Paths of the fixtures shipped in the repository, found from this file's location.
enum Paths {
    static let packageRoot = BuiltProducts.packageRoot

    static let defaultManifest = packageRoot + "/Fixtures/default/manifest.json"
    static let heavyManifest = packageRoot + "/Fixtures/heavy/manifest.json"
    static let defaultTheme = packageRoot + "/Fixtures/default/theme.xml"

    /// A new empty directory in the test process's own (removed with it when the process exits).
    static func temporaryDirectory() -> String {
        var template = Array(TemporaryDirectory.shared("pipeline-XXXXXX").utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    /// A copy of the default fixture in a temporary directory, to corrupt safely.
    static func copyOfDefaultFixture() throws -> String {
        let dir = temporaryDirectory()
        let source = packageRoot + "/Fixtures/default"
        for file in ["manifest.json", "theme.xml", "conversions.xml", "constants.xml", "settings.json"] {
            try FileIO.writeAtomically(try FileIO.read("\(source)/\(file)"), to: "\(dir)/\(file)")
        }
        for file in ["font-label.png", "font-display.png", "icon-backspace.png", "texture.png", "splash.png"] {
            try FileIO.writeAtomically(try FileIO.read("\(source)/assets/\(file)"), to: "\(dir)/assets/\(file)")
        }
        return dir
    }
}
