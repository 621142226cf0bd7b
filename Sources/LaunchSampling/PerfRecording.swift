#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchFunctions

/// One `perf record` for a whole session: started once before the first launch, attached to the
/// one thread of launchprof that spawns the runs (`--tid T --inherit`: its
/// events are inherited by the processes that thread starts, so a run's program is sampled from its
/// first instruction, while launchprof's other threads (reading the protocol, waiting) carry none);
/// perf's own start (about 2 s: it reads the kernel's symbols) is never part of a launch. Events
/// start disabled and are enabled through perf's control FIFO, whose `ack` says sampling is live.
/// `-k CLOCK_MONOTONIC` stamps samples on the phases' clock; `-g` follows frame pointers (Swift keeps them).
public final class PerfRecording {
    public let setup: SamplingSetup
    /// The private directory of perf's files (`perf.data`, its control FIFOs, its messages).
    public let directory: String
    private let perfPid: pid_t
    private let control: Int32
    private let acknowledgement: Int32
    private let registration: ExitCleanup.Registration
    private var stopped = false
    /// perf's exit status once it has been reaped.
    private var reaped: Int32?
    /// The most seconds perf may take to start sampling, or to finish writing.
    public static let startTimeout: Double = 60
    /// The largest `perf script` output read.
    public static let scriptLimit = 1 << 30

    /// Starts perf attached to the thread `tid` (what it spawns inherits the events) and waits until
    /// its events are enabled.
    public init(_ setup: SamplingSetup, thread tid: pid_t) throws(SamplingError) {
        self.setup = setup
        let directory: String
        do { directory = try FileIO.makeTemporaryDirectory(in: FileIO.temporaryDirectory, prefix: "launchprof-perf-") } catch {
            throw .perfFailed("--sample: \(error)")
        }
        self.directory = directory
        let controlPath = "\(directory)/control", ackPath = "\(directory)/ack"
        guard mkfifo(controlPath, 0o600) == 0, mkfifo(ackPath, 0o600) == 0 else {
            FileIO.removeTemporaryDirectory(directory)
            throw .perfFailed("--sample: cannot make perf's control FIFOs in \(directory): \(String(cString: strerror(errno)))")
        }
        // Both ends opened without blocking: the control one read-write (perf's open of it then
        // returns at once), the acknowledgement one for reading before perf opens it for writing.
        let control = open(controlPath, O_RDWR | O_CLOEXEC)
        let acknowledgement = open(ackPath, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        let arguments = [
            "record", "-q", "-e", setup.event, "-c", String(setup.periodNanoseconds), "-k", "CLOCK_MONOTONIC", "-g",
            "-D", "-1", "--control", "fifo:\(controlPath),\(ackPath)", "-o", "\(directory)/perf.data",
            "--tid", String(tid), "--inherit"
        ]
        let started =
            control >= 0 && acknowledgement >= 0
            ? ToolProcess.spawn(setup.perf, arguments, stdout: "\(directory)/perf.messages", stderrToStdout: true) : nil
        guard let (pid, registration) = started else {
            let reason = String(cString: strerror(errno))
            if control >= 0 { close(control) }
            if acknowledgement >= 0 { close(acknowledgement) }
            FileIO.removeTemporaryDirectory(directory)
            throw .perfFailed("--sample: cannot start \(setup.perf): \(reason)")
        }
        self.control = control
        self.acknowledgement = acknowledgement
        perfPid = pid
        self.registration = registration
        do { try command("enable") } catch {
            end(signal: SIGKILL)
            FileIO.removeTemporaryDirectory(directory)
            throw error
        }
    }

    deinit { if !stopped { end(signal: SIGKILL) } }

    /// Stops sampling, lets perf write its file, and turns it into `perf script`'s text in the
    /// directory; returns that file's path.
    public func finish() throws(SamplingError) -> String {
        try? command("disable")
        // perf record ends on SIGINT by raising it again once its file is written: that is its success.
        let status = end(signal: SIGINT)
        guard status == 0 || status == -SIGINT else { throw .perfFailed("--sample: perf record failed (\(statusText(status)))\(messages())") }
        let script = "\(directory)/perf.script"
        let result = ToolProcess.run(
            setup.perf, ["script", "-i", "\(directory)/perf.data", "-F", "pid,tid,time,ip,sym,dso", "--ns", "--no-demangle"], stdout: script)
        guard result == 0 else { throw .perfFailed("--sample: perf script could not read perf's samples (status \(result))") }
        return script
    }

    /// Removes perf's files (perf killed first if it still runs).
    public func cleanUp() {
        if !stopped { end(signal: SIGKILL) }
        FileIO.removeTemporaryDirectory(directory)
    }

    /// Sends `name` on the control FIFO and waits for perf's `ack` (or its end, or the timeout).
    private func command(_ name: String) throws(SamplingError) {
        let line = Array("\(name)\n".utf8)
        guard line.withUnsafeBytes({ write(control, $0.baseAddress, $0.count) }) == line.count else {
            throw .perfFailed("--sample: cannot write to perf's control FIFO: \(String(cString: strerror(errno)))")
        }
        let deadline = MonotonicClock.nanoseconds() &+ UInt64(Self.startTimeout * 1e9)
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while MonotonicClock.nanoseconds() < deadline {
            var status: Int32 = 0
            if waitpid(perfPid, &status, WNOHANG) == perfPid {
                reaped = Self.exitStatus(status)
                throw .perfFailed("--sample: perf record ended before sampling began (\(statusText(Self.exitStatus(status))))\(messages())")
            }
            var poller = pollfd(fd: acknowledgement, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 50) > 0 {
                let n = buffer.withUnsafeMutableBytes { read(acknowledgement, $0.baseAddress, $0.count) }
                if n > 0 { answer += buffer[0..<n] }
                if answer.contains(0x0A) { return }
            }
        }
        throw .perfFailed("--sample: perf record did not answer '\(name)' within \(Int(Self.startTimeout)) s\(messages())")
    }

    /// Signals perf, waits for it (SIGKILL after the timeout), closes the FIFOs; its exit status.
    @discardableResult
    private func end(signal: Int32) -> Int32 {
        guard !stopped else { return Self.lost }
        stopped = true
        defer {
            close(control)
            close(acknowledgement)
            ExitCleanup.unregister(registration)
        }
        if let reaped { return reaped }
        kill(perfPid, signal)
        let deadline = MonotonicClock.nanoseconds() &+ UInt64(Self.startTimeout * 1e9)
        var status: Int32 = 0
        while true {
            let waited = waitpid(perfPid, &status, WNOHANG)
            if waited == perfPid { return Self.exitStatus(status) }
            if waited < 0, errno != EINTR { return Self.lost }
            if MonotonicClock.nanoseconds() > deadline { kill(perfPid, SIGKILL) }
            usleep(10_000)
        }
    }

    /// The exit status of a `waitpid` status; minus the signal's number for a process a signal ended.
    private static func exitStatus(_ status: Int32) -> Int32 { (status & 0x7f) == 0 ? (status >> 8) & 0xff : -(status & 0x7f) }

    /// The status of a perf that could not be waited for.
    private static let lost = Int32.min

    private func statusText(_ status: Int32) -> String {
        status == Self.lost ? "its end was not seen" : status < 0 ? "killed by \(SignalNames.name(-status))" : "exit status \(status)"
    }

    /// `: <perf's first message line>`, or nothing.
    private func messages() -> String {
        guard let text = try? FileIO.readText("\(directory)/perf.messages", limit: 1 << 16) else { return "" }
        let first = text.split(separator: "\n").first { !$0.allSatisfy { $0 == " " } }
        return first.map { ": perf says '\(PlainText.oneLine(String($0)))'" } ?? ""
    }
}

extension PerfRecording {
    /// Stops perf and places its samples on the phases of `records` (the session's measured runs).
    public func summary(of records: [RunRecord], demangler: Demangler = .onPath()) throws(SamplingError) -> SampleSummary {
        let script = try finish()
        var collection = SampleCollection(records: records, selfPid: Int(getpid()))
        try PerfScriptReader.read(path: script, limit: Self.scriptLimit) { collection.add($0) }
        if collection.overflowed {
            throw .perfFailed("--sample: the runs gave more than \(SampleCollection.maximumSamples) samples: lower --sample-rate, or make fewer runs")
        }
        return SampleSummary(collection, demangler: demangler)
    }
}
