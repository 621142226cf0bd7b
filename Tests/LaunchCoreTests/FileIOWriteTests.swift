import Foundation
import Testing
@testable import LaunchCore
import LaunchprofTestSupport

/// The write side of FileIO: atomic replacement of regular files only, writing through anything
/// else, and no temporary file left behind.
@Suite(.temporaryDirectory) struct FileIOWriteTests {
    func directory() throws -> String {
        let path = TemporaryDirectory.path("write-\(UInt32.random(in: 0...UInt32.max))")
        try FileIO.createDirectories(path)
        return path
    }

    func entries(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    @Test func replacesARegularFileAndLeavesNoTemporary() throws {
        let dir = try directory()
        try FileIO.writeAtomically("old", to: dir + "/out.txt")
        try FileIO.writeAtomically("new", to: dir + "/out.txt")
        #expect(try FileIO.readText(dir + "/out.txt") == "new")
        #expect(try entries(dir) == ["out.txt"])
    }

    @Test func aSymlinkToARegularFileKeepsTheLink() throws {
        let dir = try directory()
        try FileIO.writeAtomically("old", to: dir + "/target.txt")
        #expect(symlink(dir + "/target.txt", dir + "/link.txt") == 0)
        try FileIO.writeAtomically("new", to: dir + "/link.txt")
        var info = stat()
        #expect(lstat(dir + "/link.txt", &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(try FileIO.readText(dir + "/target.txt") == "new")
        #expect(try entries(dir) == ["link.txt", "target.txt"])
    }

    @Test func aSymlinkToADeviceIsWrittenThroughNotReplaced() throws {
        let dir = try directory()
        #expect(symlink("/dev/null", dir + "/null") == 0)
        try FileIO.writeAtomically("discarded", to: dir + "/null")
        var info = stat()
        #expect(lstat(dir + "/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(stat(dir + "/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
        #expect(try entries(dir) == ["null"])
    }

    @Test func aDirectoryIsRefused() throws {
        let dir = try directory()
        #expect(throws: CoreError.self) { try FileIO.writeAtomically("x", to: dir) }
        #expect(FileIO.isDirectory(dir))
    }

    @Test func missingParentsAreCreated() throws {
        let dir = try directory()
        try FileIO.writeAtomically("deep", to: dir + "/a/b/out.txt")
        #expect(try FileIO.readText(dir + "/a/b/out.txt") == "deep")
        #expect(try entries(dir + "/a/b") == ["out.txt"])
    }
}
