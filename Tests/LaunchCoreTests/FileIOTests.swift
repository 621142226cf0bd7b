import Testing
@testable import LaunchCore
#if canImport(Glibc)
import Glibc
#endif

@Suite struct FileIOTests {
    func temporaryDirectory() -> String {
        var template = Array("/tmp/launchprof-test-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    @Test func atomicWriteCreatesReplacesAndLeavesNoTemporaryFile() throws {
        let dir = temporaryDirectory()
        let path = "\(dir)/nested/result.json"
        try FileIO.writeAtomically("first", to: path)
        try FileIO.writeAtomically("second", to: path)
        #expect(try FileIO.readText(path) == "second")
        let entries = try listDirectory("\(dir)/nested")
        #expect(entries == ["result.json"])
    }

    @Test func readingAMissingFileNamesIt() {
        #expect(throws: FileError.self) { try FileIO.read("/nonexistent/launchprof.xml") }
        do {
            _ = try FileIO.read("/nonexistent/launchprof.xml")
        } catch {
            #expect(error.description.hasPrefix("/nonexistent/launchprof.xml: cannot read: No such file"))
        }
    }

    @Test func readingADirectorySaysSo() {
        do {
            _ = try FileIO.read("/tmp")
            Issue.record("reading a directory should fail")
        } catch {
            #expect(error.description == "/tmp: is a directory, not a regular file: launchprof reads inputs from regular files only")
        }
    }

    @Test func pathsResolveAgainstADirectory() {
        #expect(FileIO.resolve("theme.xml", relativeTo: "Fixtures/default") == "Fixtures/default/theme.xml")
        #expect(FileIO.resolve("/abs/theme.xml", relativeTo: "Fixtures/default") == "/abs/theme.xml")
        #expect(FileIO.resolve("theme.xml", relativeTo: "") == "theme.xml")
        #expect(FileIO.parentDirectory(of: "a/b/c.json") == "a/b")
        #expect(FileIO.parentDirectory(of: "c.json") == "")
        #expect(FileIO.parentDirectory(of: "/c.json") == "/")
    }

    func listDirectory(_ path: String) throws -> [String] {
        guard let dir = opendir(path) else { throw FileError(path: path, reason: "cannot list") }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
