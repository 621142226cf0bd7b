import LaunchprofTestSupport
import Testing
import Glibc
import LaunchCore

/// Eviction touches regular files only: whatever else stands at a path never blocks or counts.
struct PageCacheTests {
    func temporaryDirectory() -> String {
        var template = Array(TemporaryDirectory.uniquePath("pagecache-XXXXXX").utf8CString)
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
        var template = Array(TemporaryDirectory.uniquePath("append-XXXXXX").utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { FileIO.removeTree(directory) }
        try FileIO.append("a\n", to: directory + "/summary.md")
        try FileIO.append("b\n", to: directory + "/summary.md")
        #expect(try FileIO.read(directory + "/summary.md") == Array("a\nb\n".utf8))
        #expect(mkfifo(directory + "/fifo", 0o644) == 0)
        #expect(throws: CoreError.self) { try FileIO.append("x\n", to: directory + "/fifo") }
    }
}

extension PageCacheTests {
    /// A cold launch's reads (`coldFaults`, docs/why-slow.md): what of an evicted file is back in the
    /// page cache after it was read, by `mincore`, without reading it.
    @Test func theBytesReadBackAfterAnEvictionAreFound() throws {
        let directory = temporaryDirectory()
        defer { FileIO.removeTree(directory) }
        let read = directory + "/read.png", untouched = directory + "/untouched.png"
        try FileIO.writeAtomically([UInt8](repeating: 1, count: 256 << 10), to: read)
        try FileIO.writeAtomically([UInt8](repeating: 2, count: 256 << 10), to: untouched)
        #expect(PageCache.evict([read, untouched]) == 2)
        #expect(PageCache.residentBytes(of: read) == 0 && PageCache.residentBytes(of: untouched) == 0, "evicted: nothing left in the cache")
        _ = try FileIO.read(read, limit: .result)
        let reads = PageCache.reads(of: [untouched, read, directory + "/missing.png"])
        #expect(reads.map(\.path) == [read], "the file read is found, the untouched and the missing are not")
        #expect(reads.first.map { $0.bytes >= 256 << 10 } == true, "all of it was read")
        #expect(PageCache.residentBytes(of: untouched) == 0, "asking brings nothing into the cache")
    }
}
