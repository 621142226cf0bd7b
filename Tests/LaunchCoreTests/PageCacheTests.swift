import Testing
import Glibc
import LaunchCore

/// Eviction touches regular files only: whatever else stands at a path never blocks or counts.
struct PageCacheTests {
    func temporaryDirectory() -> String {
        var template = Array("\(FileIO.temporaryDirectory)/launchprof-pagecache-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    @Test func aRegularFileIsEvictedAndAFIFOADeviceAndAMissingPathAreSkippedWithoutBlocking() throws {
        let directory = temporaryDirectory()
        defer { FileIO.removeTree(directory) }
        let file = directory + "/asset.png"
        try FileIO.writeAtomically(Array(repeating: 7, count: 4096), to: file)
        let fifo = directory + "/fifo.png"
        #expect(mkfifo(fifo, 0o644) == 0)
        let deviceLink = directory + "/zero.png"
        #expect(symlink("/dev/zero", deviceLink) == 0)
        // A FIFO nobody writes to: a blocking open would never return and this test would hang.
        #expect(PageCache.evict([file, fifo, deviceLink, directory + "/missing.png", directory]) == 1)
        #expect(PageCache.files(under: directory).contains(file))
    }

    @Test func linksToParentDirectoriesAreListedNotFollowed() throws {
        let directory = temporaryDirectory()
        defer { FileIO.removeTree(directory) }
        try FileIO.createDirectories(directory + "/assets/icons")
        try FileIO.writeAtomically([1], to: directory + "/assets/icons/key.png")
        // Two links up: followed, the walk would double at every level until paths grew too long.
        #expect(symlink("..", directory + "/assets/up") == 0)
        #expect(symlink("../..", directory + "/assets/icons/top") == 0)
        #expect(
            PageCache.files(under: directory + "/assets") == [directory + "/assets/icons/key.png", directory + "/assets/icons/top", directory + "/assets/up"])
    }
}

extension PageCacheTests {
    @Test func theWalkStopsAfterItsEntryLimitAndItsDepth() throws {
        // `/usr` holds far more than the limit: the walk must stop there, not list them all.
        let listed = PageCache.files(under: "/usr")
        #expect(listed.count <= PageCache.maximumEntries)
        #expect(listed.count > 1000)
        let directory = temporaryDirectory()
        defer { FileIO.removeTree(directory) }
        var path = directory
        for _ in 0..<(PageCache.maximumDepth + 3) { path += "/d" }
        try FileIO.createDirectories(path)
        try FileIO.writeAtomically([1], to: path + "/deep.png")
        #expect(PageCache.files(under: directory).isEmpty)  // Below the depth limit: not reached.
    }
}

/// Appending (GitHub's step summary) never waits on a FIFO nobody reads.
struct FileAppendTests {
    @Test func appendingToAFileAddsAndToAFIFOWithoutReaderFailsAtOnce() throws {
        var template = Array("\(FileIO.temporaryDirectory)/launchprof-append-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { FileIO.removeTree(directory) }
        try FileIO.append("a\n", to: directory + "/summary.md")
        try FileIO.append("b\n", to: directory + "/summary.md")
        #expect(try FileIO.read(directory + "/summary.md") == Array("a\nb\n".utf8))
        #expect(mkfifo(directory + "/fifo", 0o644) == 0)
        #expect(throws: CoreError.self) { try FileIO.append("x\n", to: directory + "/fifo") }
    }
}
