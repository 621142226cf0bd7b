import Foundation
import Testing
import LaunchCore
import LaunchExport
import LaunchResults

/// Wrong but quiet: a selection the result doesn't hold is an error in every format, and `--output`
/// writes through a link to a device or pipe instead of replacing it.
@Suite(.serialized) struct OutputSafetyTests {
    /// A saved result of `runs` runs, numbered from 1.
    func savedResult(runs: Int) throws -> String {
        let host = HostInfo(cpuModel: "Test CPU", cores: 2, os: "Linux", architecture: "x86_64", swiftVersion: "6.3", hostname: "ci")
        let records = (1...runs).map { i in
            RunRecord(
                index: i, pid: 100 + i, total: 0.3,
                phases: [
                    PhaseRecord(name: "Init", kind: .cpu, start: 0, duration: 0.1),
                    PhaseRecord(name: "drawing", kind: .draw, start: 0.1, duration: 0.2)
                ])
        }
        let result = LaunchResult(
            date: "2026-11-22T07:00:00Z", manifest: ManifestInfo(name: "m", path: "m.json", sha256: "abc"),
            host: host, runs: records)
        let path = CLI.temporaryPath("result.json")
        try ResultFile.write(result, to: path)
        return path
    }

    @Test(arguments: ["text", "json", "csv", "markdown", "chrome-trace", "svg"])
    func runOutOfRangeIsAnErrorInEveryFormat(format: String) throws {
        let path = try savedResult(runs: 10)
        defer { unlink(path) }
        let outcome = try CLI.run(["report", path, "--format", format, "--run", "99"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("--run 99 is out of range"))
        #expect(outcome.stderr.contains("1…10"))
        #expect(outcome.stderr.contains(path))
        #expect(outcome.stdout.isEmpty)
        let inRange = try CLI.run(["report", path, "--format", format, "--run", "10"])
        #expect(inRange.status == 0)
    }

    @Test func runOutOfRangeIsAnErrorForTheCriticalPathToo() throws {
        let path = try savedResult(runs: 3)
        defer { unlink(path) }
        let outcome = try CLI.run(["report", path, "--critical-path", "--run", "4"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("1…3"))
    }

    @Test func outputThroughALinkToStdoutWritesThroughAndKeepsTheLink() throws {
        let path = try savedResult(runs: 2)
        let link = CLI.temporaryPath("stdout-link")
        defer { unlink(path); unlink(link) }
        #expect(symlink("/dev/stdout", link) == 0)
        let outcome = try CLI.run(["report", path, "--format", "csv", "--output", link])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("run,phase,parent,thread,start,duration,rss\n"))
        var info = stat()
        #expect(lstat(link, &info) == 0)
        #expect((info.st_mode & S_IFMT) == S_IFLNK)
        #expect(
            FileManager.default.subpathsOrEmpty(FileIO.parentDirectory(of: link)).filter { $0.hasPrefix(URL(fileURLWithPath: link).lastPathComponent + ".") }
                .isEmpty)
    }

    @Test func outputThroughALinkToDevNullKeepsTheLinkAndTheDevice() throws {
        let path = try savedResult(runs: 2)
        let link = CLI.temporaryPath("null-link")
        defer { unlink(path); unlink(link) }
        #expect(symlink("/dev/null", link) == 0)
        let outcome = try CLI.run(["report", path, "--format", "svg", "--output", link])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        var info = stat()
        #expect(lstat(link, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test func outputToAFIFOWritesThroughToItsReader() throws {
        let path = try savedResult(runs: 2)
        let fifo = CLI.temporaryPath("fifo")
        let link = CLI.temporaryPath("fifo-link")
        defer { unlink(path); unlink(fifo); unlink(link) }
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(symlink(fifo, link) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let outcome = try CLI.run(["report", path, "--format", "csv", "--output", link])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let n = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
        #expect(n > 0)
        #expect(String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self).hasPrefix("run,phase,"))
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        #expect(lstat(link, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
    }

    @Test func outputToAFIFOWithoutAReaderIsAnErrorNotAWait() throws {
        let path = try savedResult(runs: 2)
        let fifo = CLI.temporaryPath("lonely-fifo")
        defer { unlink(path); unlink(fifo) }
        #expect(mkfifo(fifo, 0o600) == 0)
        let outcome = try CLI.run(["report", path, "--format", "csv", "--output", fifo])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(fifo))
        #expect(outcome.stderr.contains("no reader"))
    }

    @Test func outputThroughALinkToARegularFileReplacesTheTargetAndKeepsTheLink() throws {
        let path = try savedResult(runs: 2)
        let target = CLI.temporaryPath("target.csv")
        let link = CLI.temporaryPath("target-link")
        defer { unlink(path); unlink(target); unlink(link) }
        try FileIO.writeAtomically("old\n", to: target)
        #expect(symlink(target, link) == 0)
        let outcome = try CLI.run(["report", path, "--format", "csv", "--output", link])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        var info = stat()
        #expect(lstat(link, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(try FileIO.readText(target).hasPrefix("run,phase,"))
    }
}

extension FileManager {
    func subpathsOrEmpty(_ directory: String) -> [String] { (try? contentsOfDirectory(atPath: directory)) ?? [] }
}
