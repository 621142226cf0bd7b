import LaunchprofTestSupport
import Foundation
import Testing
@testable import LaunchCore

/// Writing through symbolic links: the link is kept and its target written, created when missing
/// (as a shell's `>` does), however the link is written (absolute, relative, chained).
@Suite struct LinkedOutputTests {
    func directory() throws -> String {
        let path = TemporaryDirectory.uniquePath("links")
        try FileIO.createDirectories(path)
        return path
    }

    func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    @Test func aLinkToAMissingFileIsKeptAndItsTargetCreated() throws {
        let dir = try directory()
        defer { FileIO.removeTree(dir) }
        #expect(symlink(dir + "/target.json", dir + "/out.json") == 0)
        try FileIO.writeAtomically("hello", to: dir + "/out.json")
        #expect(isLink(dir + "/out.json"))
        #expect(try FileIO.readText(dir + "/target.json") == "hello")
    }

    @Test func relativeAndChainedLinksAreFollowedFromTheirOwnDirectories() throws {
        let dir = try directory()
        defer { FileIO.removeTree(dir) }
        try FileIO.createDirectories(dir + "/a/b")
        // out -> a/link (relative to dir) -> b/file (relative to a), which does not exist yet.
        #expect(symlink("b/file", dir + "/a/link") == 0)
        #expect(symlink("a/link", dir + "/out") == 0)
        try FileIO.writeAtomically("first", to: dir + "/out")
        try FileIO.writeAtomically("second", to: dir + "/out")
        #expect(isLink(dir + "/out") && isLink(dir + "/a/link"))
        #expect(try FileIO.readText(dir + "/a/b/file") == "second")
        #expect(FileIO.entries(of: dir + "/a/b") == ["file"])
    }

    @Test func aLinkIntoAMissingDirectoryCreatesIt() throws {
        let dir = try directory()
        defer { FileIO.removeTree(dir) }
        #expect(symlink(dir + "/new/dir/result.json", dir + "/out.json") == 0)
        try FileIO.writeAtomically("x", to: dir + "/out.json")
        #expect(isLink(dir + "/out.json"))
        #expect(try FileIO.readText(dir + "/new/dir/result.json") == "x")
    }

    @Test func aLoopOfLinksIsAnErrorNamingThePath() throws {
        let dir = try directory()
        defer { FileIO.removeTree(dir) }
        #expect(symlink(dir + "/b", dir + "/a") == 0)
        #expect(symlink(dir + "/a", dir + "/b") == 0)
        #expect {
            try FileIO.writeAtomically("x", to: dir + "/a")
        } throws: { error in
            "\(error)".contains(dir + "/a") && isLink(dir + "/a") && isLink(dir + "/b")
        }
    }
}

/// ``PlainText/quoted(_:limit:)``: how every message quotes user text.
@Suite struct QuotedTextTests {
    @Test func userTextIsQuotedOnOneLineAndCut() {
        #expect(PlainText.quoted("drawing") == "'drawing'")
        #expect(PlainText.quoted("x\nquit: forged") == #"'x\nquit: forged'"#)
        #expect(PlainText.quoted("\u{1B}[2J\r\u{85}\u{2028}") == #"'\u{1b}[2J\r\u{85}\u{2028}'"#)
        #expect(PlainText.quoted(String(repeating: "a", count: 100_000)) == "'" + String(repeating: "a", count: 80) + "…'")
        #expect(PlainText.quoted("abcdef", limit: 3) == "'abc…'")
        #expect(PlainText.quoted("abc", limit: 3) == "'abc'")
        #expect(PlainText.clipped("a\tb") == #"a\tb"#)
    }
}
