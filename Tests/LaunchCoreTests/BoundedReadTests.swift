import Testing
@testable import LaunchCore
#if canImport(Glibc)
import Glibc
import LaunchprofTestSupport
#endif

/// Every input is read once, from a regular file, up to its kind's limit: devices, FIFOs and huge
/// files are refused at once with the path, never read until memory runs out or waited on.
@Suite(.temporaryDirectory) struct BoundedReadTests {
    func directory() -> String {
        var template = Array(TemporaryDirectory.path("bounded-XXXXXX").utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    func reason(_ path: String, limit: Int = InputLimit.general.bytes) -> String? {
        do {
            _ = try FileIO.read(path, limit: limit)
            return nil
        } catch {
            #expect(error.path == path)
            return error.reason
        }
    }

    @Test func aSymlinkToADeviceIsRefused() {
        let link = directory() + "/theme.xml"
        #expect(symlink("/dev/zero", link) == 0)
        #expect(reason(link) == "is a character device, not a regular file: launchprof reads inputs from regular files only")
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() {
        let fifo = directory() + "/manifest.json"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(reason(fifo)?.hasPrefix("is a FIFO (named pipe), not a regular file") == true)
    }

    @Test func aDirectoryIsRefused() {
        #expect(reason(directory())?.hasPrefix("is a directory, not a regular file") == true)
    }

    @Test func aFileOverItsKindsLimitIsRefusedBeforeReading() throws {
        let path = directory() + "/big.xml"
        try FileIO.writeAtomically([UInt8](repeating: 0x20, count: 2048), to: path)
        #expect(reason(path, limit: 1024) == "is 2048 bytes, larger than the limit of 1 KiB for this kind of file")
        #expect(try FileIO.read(path, limit: 2048).count == 2048)
        // A sparse file claiming 20 GiB is refused from its size alone, in no time.
        let sparse = directory() + "/sparse.png"
        let fd = open(sparse, O_WRONLY | O_CREAT, 0o600)
        #expect(ftruncate(fd, 20 << 30) == 0)
        close(fd)
        #expect(reason(sparse, limit: InputLimit.asset.bytes)?.contains("larger than the limit of 64 MiB") == true)
    }

    /// The chunked reader (Callgrind's and perf's files) refuses what the whole-file reader does.
    func chunkedReason(_ path: String) -> String? {
        do {
            _ = try FileIO.readChunks(path, limit: 1 << 20) { (pending: inout [UInt8]) throws(CoreError) in pending.removeAll() }
            return nil
        } catch {
            guard case .unreadable(let reason) = error else { return "not unreadable: \(error)" }
            return reason
        }
    }

    @Test func theChunkedReaderRefusesFIFOsDevicesAndDirectoriesWithoutWaiting() {
        let fifo = directory() + "/callgrind.out"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(chunkedReason(fifo)?.hasPrefix("is a FIFO (named pipe), not a regular file") == true)
        let link = directory() + "/perf.txt"
        #expect(symlink("/dev/zero", link) == 0)
        #expect(chunkedReason(link)?.hasPrefix("is a character device, not a regular file") == true)
        #expect(chunkedReason(directory())?.hasPrefix("is a directory, not a regular file") == true)
        #expect(chunkedReason(directory() + "/missing")?.contains("No such file or directory") == true)
    }

    @Test func theChunkedReaderReadsARegularFileToTheEnd() throws {
        let path = directory() + "/lines.txt"
        try FileIO.writeAtomically([UInt8]("one\ntwo\nthree".utf8), to: path)
        var lines = 0
        let rest = try FileIO.readChunks(path, limit: 1 << 20) { (pending: inout [UInt8]) throws(CoreError) in
            while let newline = pending.firstIndex(of: 10) {
                lines += 1
                pending.removeSubrange(...newline)
            }
        }
        #expect(lines == 2)
        #expect(rest == Array("three".utf8))
    }

    @Test func limitsAreDescribedInTheirUnits() {
        #expect(InputLimit.describe(InputLimit.theme.bytes) == "16 MiB")
        #expect(InputLimit.describe(1 << 30) == "1 GiB")
        #expect(InputLimit.describe(1000) == "1000 bytes")
    }
}
