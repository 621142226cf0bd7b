import Foundation
import Glibc
import LaunchCore
@testable import LaunchprofClient
import Testing

/// The Swift client's reporter, in this process: its lines written to a pipe and read back by the
/// launcher's parser.
@Suite struct ReporterTests {
    @Test func eventsReachTheParser() throws {
        let capture = try PipeCapture()
        let reporter = Reporter(descriptorText: "\(capture.writeEnd)")
        #expect(reporter.isActive)
        #expect(fcntl(capture.writeEnd, F_GETFD) & FD_CLOEXEC != 0, "the descriptor is made close-on-exec")
        reporter.begin("loading config", kind: .io)
        reporter.begin("parsing", kind: .cpu)
        reporter.end("parsing")
        reporter.end("loading config")
        for kind in Launchprof.Kind.allCases {
            reporter.begin(kind.rawValue, kind: kind)
            reporter.end(kind.rawValue)
        }
        reporter.mark("interactive")
        reporter.count(19, "keys laid out")
        reporter.count(-5, "keys laid out")
        reporter.count(Int.min, "smallest")
        errno = 1234
        reporter.mark("errno kept")
        #expect(errno == 1234)
        reporter.done()
        #expect(!reporter.isActive)
        reporter.mark("after done")
        reporter.done()
        let report = try capture.report()
        #expect(report.lines.prefix(2).map { String(decoding: $0, as: UTF8.self) } == ["launchprof 1", "main \(reporter.mainReading)"])
        #expect(report.phases.map(\.name) == ["loading config", "parsing", "cpu", "io", "decode", "draw"])
        #expect(report.phases.map(\.kind) == [.io, .cpu, .cpu, .io, .decode, .draw])
        #expect(report.phases.map(\.depth) == [0, 1, 0, 0, 0, 0])
        #expect(report.phases.allSatisfy { $0.thread == 0 }, "the thread that made the reporter is 0")
        #expect(report.run.marks.map(\.name) == ["interactive", "errno kept"], "nothing follows done")
        #expect(report.run.counters.map(\.value) == [14, Int.min])
        #expect(report.lines("done").count == 1)
    }

    @Test func hostileNamesComeBackAsWritten() throws {
        let capture = try PipeCapture()
        let reporter = Reporter(descriptorText: "\(capture.writeEnd)")
        let names = HostileNames.cases.map(\.name) + ["\\\u{301} combining", "nul\0inside"]
        for name in names {
            reporter.begin(name, kind: nil)
            reporter.mark(name)
            reporter.count(1, name)
            reporter.end(name)
        }
        reporter.done()
        let report = try capture.report()
        let expected = HostileNames.cases.map(\.expected) + ["\\\u{301} combining", "nul\0inside"]
        #expect(report.phases.map(\.name) == expected)
        #expect(report.run.marks.map(\.name) == expected)
    }

    @Test func threadsWriteWholeLinesWithNumbersOfTheirOwn() throws {
        let capture = try PipeCapture()
        let reporter = Reporter(descriptorText: "\(capture.writeEnd)")
        let group = DispatchGroup()
        reporter.begin("spawning workers", kind: nil)
        for worker in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                for step in 0..<100 {
                    reporter.begin("worker \(worker) step \(step)", kind: .cpu)
                    reporter.begin(ThreadedReport.longName, kind: nil)
                    reporter.mark(ThreadedReport.longName)
                    reporter.end(ThreadedReport.longName)
                    reporter.count(1, "steps")
                    reporter.end("worker \(worker) step \(step)")
                }
                group.leave()
            }
        }
        group.wait()
        reporter.end("spawning workers")
        reporter.done()
        try ThreadedReport.check(try capture.report(), workers: 8, steps: 100)
    }

    @Test func manyEventsOnANonBlockingDescriptorArriveWhole() throws {
        let capture = try PipeCapture()
        _ = fcntl(capture.writeEnd, F_SETFL, fcntl(capture.writeEnd, F_GETFL) | O_NONBLOCK)  // the pipe fills: EAGAIN
        let reporter = Reporter(descriptorText: "\(capture.writeEnd)")
        for _ in 0..<20_000 { reporter.mark("m") }
        reporter.done()
        #expect(try capture.report().run.marks.count == 20_000)
    }

    @Test func nothingFollowsDoneWhileOtherThreadsReport() throws {
        let capture = try PipeCapture()
        let reporter = Reporter(descriptorText: "\(capture.writeEnd)")
        let group = DispatchGroup()
        let stop = SharedFlag(false)
        for _ in 0..<4 {
            group.enter()
            Thread.detachNewThread {
                while !stop.load() { reporter.mark("racing done") }
                group.leave()
            }
        }
        usleep(20_000)
        reporter.done()
        usleep(20_000)
        stop.store(true)
        group.wait()
        let report = try capture.report()
        #expect(report.lines.last?.starts(with: Array("done ".utf8)) == true)
        #expect(report.run.marks.allSatisfy { $0.name == "racing done" && $0.thread > 0 })
    }

    @Test(arguments: UnusableDescriptors.values)
    func anUnusableDescriptorTextIsANoOp(text: String?) {
        let reporter = Reporter(descriptorText: text)
        #expect(!reporter.isActive, "LAUNCHPROF_FD=\(text ?? "unset")")
        reporter.begin("x", kind: nil)
        reporter.end("x")
        reporter.done()
    }

    @Test func aReadOnlyDescriptorIsANoOp() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        defer { close(fds[0]) }
        let readOnly = Reporter(descriptorText: "\(fds[0])")
        #expect(!readOnly.isActive)
        readOnly.mark("x")
        close(fds[1])
        var byte: UInt8 = 0
        #expect(read(fds[0], &byte, 1) == 0, "nothing was written")
    }

    @Test func aBrokenPipeTurnsTheReporterOff() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        defer { close(fds[1]) }
        close(fds[0])
        let reporter = Reporter(descriptorText: "\(fds[1])")
        #expect(reporter.isActive)
        reporter.mark("nobody reads this")  // EPIPE, and the SIGPIPE it raised consumed
        #expect(!reporter.isActive)
        var pending = sigset_t()
        sigpending(&pending)
        #expect(sigismember(&pending, SIGPIPE) == 0)
    }
}

/// A flag threads share in a test.
final class SharedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Bool
    init(_ value: Bool) { self.value = value }
    func load() -> Bool { lock.withLock { value } }
    func store(_ newValue: Bool) { lock.withLock { value = newValue } }
}
