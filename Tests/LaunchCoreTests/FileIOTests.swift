import Testing
@testable import LaunchCore
#if canImport(Glibc)
import Glibc
import LaunchprofTestSupport
#endif

@Suite(.temporaryDirectory) struct FileIOTests {
    func temporaryDirectory() -> String {
        var template = Array(TemporaryDirectory.path("fileio-XXXXXX").utf8CString)
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
        #expect(throws: CoreError.self) { try FileIO.read("/nonexistent/launchprof.xml") }
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

    /// Opening a FIFO for reading would block until a writer came; it is refused after the open instead.
    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let path = temporaryDirectory() + "/theme.xml"
        #expect(mkfifo(path, 0o600) == 0)
        do {
            _ = try FileIO.read(path, limit: .theme)
            Issue.record("a FIFO must be refused")
        } catch {
            #expect(error == .notRegularFile(path: path, type: "a FIFO (named pipe)"))
            #expect(error.description == "\(path): is a FIFO (named pipe), not a regular file: launchprof reads inputs from regular files only")
        }
    }

    /// A symlink to /dev/zero would be read until memory ran out: the opened descriptor is a device.
    @Test func aSymlinkToDevZeroIsRefused() throws {
        let path = temporaryDirectory() + "/manifest.json"
        #expect(symlink("/dev/zero", path) == 0)
        for kind in InputLimit.allCases {
            do {
                _ = try FileIO.read(path, limit: kind)
                Issue.record("/dev/zero must be refused as a \(kind)")
            } catch {
                #expect(error == .notRegularFile(path: path, type: "a character device"))
                #expect(error.description == "\(path): is a character device, not a regular file: launchprof reads inputs from regular files only")
            }
        }
    }

    /// Each kind refuses a file one byte over its limit (sparse, so the test writes nothing), and
    /// the message names the file, the limit and the kind.
    @Test func aFileOverItsKindsLimitIsRefused() throws {
        let dir = temporaryDirectory()
        for kind in InputLimit.allCases {
            let path = "\(dir)/\(kind)"
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            #expect(fd >= 0)
            #expect(ftruncate(fd, off_t(kind.bytes + 1)) == 0)
            close(fd)
            do {
                _ = try FileIO.read(path, limit: kind)
                Issue.record("a \(kind) over \(kind.bytes) bytes must be refused")
            } catch {
                #expect(error == .tooLarge(path: path, size: kind.bytes + 1, limit: kind.bytes, kind: "a \(kind.name)"))
                #expect(
                    error.description == "\(path): is \(kind.bytes + 1) bytes, larger than the limit of \(InputLimit.describe(kind.bytes)) for a \(kind.name)")
            }
            unlink(path)
        }
    }

    @Test func aFileExactlyAtTheLimitIsRead() throws {
        let path = temporaryDirectory() + "/f"
        try FileIO.writeAtomically([UInt8](repeating: 7, count: 100), to: path)
        #expect(try FileIO.read(path, limit: 100) == [UInt8](repeating: 7, count: 100))
        let error = #expect(throws: CoreError.tooLarge(path: path, size: 100, limit: 99, kind: "this kind of file")) {
            try FileIO.read(path, limit: 99)
        }
        #expect(error?.description == "\(path): is 100 bytes, larger than the limit of 99 bytes for this kind of file")
    }

    /// A file whose size `fstat` does not tell (procfs says 0) is still read at most limit + 1 bytes.
    @Test func aFileLargerThanItsStatSizeIsCutAtTheLimit() {
        let error = #expect(throws: CoreError.tooLarge(path: "/proc/self/status", size: nil, limit: 16, kind: "this kind of file")) {
            try FileIO.read("/proc/self/status", limit: 16)
        }
        #expect(error?.description == "/proc/self/status: grew past the limit of 16 bytes for this kind of file while being read")
    }

    @Test func limitsAreDefinedForEveryKind() {
        #expect(InputLimit.theme.bytes == 16 << 20)
        #expect(InputLimit.result.bytes == 1 << 30)
        #expect(InputLimit.describe(InputLimit.result.bytes) == "1 GiB")
        #expect(InputLimit.allCases.allSatisfy { $0.bytes > 0 && $0.bytes <= 1 << 30 })
    }

    // JSON nesting, checked before a decoder recurses.
    @Test func deepJSONIsFoundWithItsPosition() {
        let deep = Array(("{\"a\":\n" + String(repeating: "[", count: 100_000)).utf8)
        #expect(JSONNesting.check(deep) == JSONNesting.TooDeep(line: 2, column: 64, limit: 64))
        #expect(JSONNesting.check(Array(String(repeating: "[", count: 64).utf8)) == nil)
    }

    @Test func bracketsInsideStringsAreNotNesting() {
        let text = #"{"a": "[[[[[[[[\"[[[[[[[[", "b": [1]}"#
        #expect(JSONNesting.check(Array(text.utf8), limit: 2) == nil)
        #expect(JSONNesting.check(Array(text.utf8), limit: 1) == JSONNesting.TooDeep(line: 1, column: 34, limit: 1))
    }

    @Test func pathsResolveAgainstADirectory() {
        #expect(FileIO.resolve("theme.xml", relativeTo: "Fixtures/default") == "Fixtures/default/theme.xml")
        #expect(FileIO.resolve("/abs/theme.xml", relativeTo: "Fixtures/default") == "/abs/theme.xml")
        #expect(FileIO.resolve("theme.xml", relativeTo: "") == "theme.xml")
        #expect(FileIO.parentDirectory(of: "a/b/c.json") == "a/b")
        #expect(FileIO.parentDirectory(of: "c.json") == "")
        #expect(FileIO.parentDirectory(of: "/c.json") == "/")
    }

    @Test func temporaryFilesGoWhereTMPDIRSaysWhenItIsAnAbsolutePath() {
        #expect(FileIO.temporaryDirectory(tmpdir: nil) == "/tmp")
        #expect(FileIO.temporaryDirectory(tmpdir: "") == "/tmp")
        #expect(FileIO.temporaryDirectory(tmpdir: "relative/dir") == "/tmp")
        #expect(FileIO.temporaryDirectory(tmpdir: "/scratch/run-1") == "/scratch/run-1")
        #expect(FileIO.temporaryDirectory(tmpdir: "/scratch/run-1//") == "/scratch/run-1")
        #expect(FileIO.temporaryDirectory(tmpdir: "/") == "/")
    }

    @Test func entriesListsEveryNameButDotAndDotDot() throws {
        let dir = temporaryDirectory()
        defer { FileIO.removeTree(dir) }
        let names = ["a", "long-" + String(repeating: "n", count: 200), "ünïcode"]
        for name in names { try FileIO.writeAtomically("x", to: dir + "/" + name) }
        #expect(FileIO.entries(of: dir).sorted() == names.sorted())
        #expect(FileIO.entries(of: dir + "/missing").isEmpty)
    }

    func listDirectory(_ path: String) throws -> [String] {
        guard let dir = opendir(path) else { throw CoreError.system(path: path, action: "list", reason: String(cString: strerror(errno))) }
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
