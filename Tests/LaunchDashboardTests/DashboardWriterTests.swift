import LaunchprofTestSupport
import Foundation
import LaunchCore
import LaunchDashboard
import Testing

/// The site's directory: written whole, a previous dashboard replaced, anything else refused untouched.
struct DashboardWriterTests {
    static func scratch() -> String {
        let path = TemporaryDirectory.uniquePath("dashboard")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static let empty = try! DashboardData(title: "first", source: "s", order: [], environments: [:], series: [], detected: [])

    @Test func writesEveryFileThenReplacesAPreviousDashboardWholly() throws {
        let root = Self.scratch()
        defer { FileIO.removeTree(root) }
        let site = root + "/deep/site"
        try DashboardWriter.write(Self.empty, to: site)
        #expect(FileIO.entries(of: site).sorted() == DashboardWriter.fileNames.sorted())
        #expect(try FileIO.readText(site + "/index.html").contains("<title>first</title>"))
        var second = Self.empty
        second.title = "second"
        try DashboardWriter.write(second, to: site + "/")
        #expect(try FileIO.readText(site + "/index.html").contains("<title>second</title>"))
        // Nothing left beside it: no staging or previous directory.
        #expect(FileIO.entries(of: root + "/deep") == ["site"])
    }

    @Test func anEmptyDirectoryIsFilledAndOtherFilesAreRefusedUntouched() throws {
        let root = Self.scratch()
        defer { FileIO.removeTree(root) }
        try FileIO.createDirectories(root + "/empty")
        try DashboardWriter.write(Self.empty, to: root + "/empty")
        #expect(FileIO.exists(root + "/empty/index.html"))

        try FileIO.createDirectories(root + "/notes")
        try FileIO.writeAtomically("mine", to: root + "/notes/todo.txt")
        #expect(throws: DashboardError.self) { try DashboardWriter.write(Self.empty, to: root + "/notes") }
        do { try DashboardWriter.write(Self.empty, to: root + "/notes") } catch { #expect("\(error)".contains("no .launchprof-dashboard")) }
        #expect(FileIO.entries(of: root + "/notes") == ["todo.txt"])

        // A previous dashboard someone added a file to: refused, naming the file.
        try FileIO.writeAtomically("x", to: root + "/empty/extra.txt")
        do {
            try DashboardWriter.write(Self.empty, to: root + "/empty")
            Issue.record("a dashboard with a foreign file was replaced")
        } catch { #expect("\(error)".contains("holds extra.txt")) }
        #expect(FileIO.exists(root + "/empty/extra.txt"))

        try FileIO.writeAtomically("file", to: root + "/plain")
        do {
            try DashboardWriter.write(Self.empty, to: root + "/plain")
            Issue.record("a file was replaced by a dashboard")
        } catch { #expect("\(error)".contains("not a directory")) }
        #expect(try FileIO.readText(root + "/plain") == "file")
        #expect(FileIO.entries(of: root).sorted() == ["empty", "notes", "plain"])
    }
}
