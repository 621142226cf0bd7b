#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// The run's end, once the loop is over: the last partial line, the ready pattern's last verdict,
/// how the process ended, and the record (at ready, or at its exit).
extension RunReading {
    /// A last line without its newline, parsed unless it is too long or the report already failed.
    mutating func consumePartialLine() {
        guard failure == nil, !pending.isEmpty, pending.count <= 1 << 20 else { return }
        do { try parser.consume(Substring(String(decoding: pending, as: UTF8.self))) } catch { failure = .garbage(error) }
    }

    /// Lines still being tested when the program exited: their verdict, within the timeout.
    mutating func awaitReadyVerdict() throws(RunnerError) {
        guard readyReading == nil, let matcher, !matcher.isIdle else { return }
        readyReading = matcher.waitForVerdict(until: deadline)
        if readyReading == nil, !matcher.isIdle {
            killProgram()
            throw timedOut
        }
    }

    /// The run's record: at ready (when it came before the exit), else at the exit.
    mutating func record() throws(RunnerError) -> RunRecord {
        if let readyReading, ended == nil || exitReading.map({ readyReading <= $0 }) == true { return try recordAtReady(readyReading) }
        return try recordAtExit()
    }

    /// Ready: the end of the launch. What the program was doing counts up to that moment; it is
    /// asked to stop (SIGTERM), then killed after the grace period.
    private mutating func recordAtReady(_ readyReading: UInt64) throws(RunnerError) -> RunRecord {
        parser.closeOpenPhases(at: readyReading)
        ended = ended ?? launcher.stop(pid, grace: launcher.program?.grace ?? 0)
        ProcessLauncher.killAndReapGroup(pid, token: runToken, containment: containment)
        while reportOpen, ProcessLauncher.readable(pipes.reportFD) { try readReport() }
        if let failure { throw failure }
        // The run's origin: the spawner's reading just before the program's spawn, when it gave one.
        let origin = spawner.spawnReading ?? spawnReading
        return try launcher.programRecord(
            parser: parser, protocolBytes: protocolBytes, ending: pipes.reportFD >= 0 ? launcher.spawnerEnding(spawner) : ended,
            endReading: readyReading, origin: origin, launcherOrigin: spawnReading, index: index, pid: pid, ready: true,
            trace: trace.map { ($0.capture, $0.file, launcher.clock(of: $0.clock, spawner, origin: origin, end: readyReading)) },
            stderr: stderrTruncated ? nil : stderrBytes)
    }

    /// The program exited (or its pipes closed): its end, its failure if any, its record.
    private mutating func recordAtExit() throws(RunnerError) -> RunRecord {
        let ending = try programEnding()
        // Whatever the program started and left behind (it holds no pipe now, or held one too long).
        ProcessLauncher.killAndReapGroup(pid, token: runToken, containment: containment)
        try failIfEndedBadly(ending, stderr: String(decoding: stderrBytes.prefix(65536), as: UTF8.self))
        return try launcher.program != nil ? programRecordAtExit(ending) : appRecord(ending)
    }

    /// How the program ended: reaped here (within the deadline), or as its spawner reported.
    private mutating func programEnding() throws(RunnerError) -> ProcessLauncher.Ending {
        guard var ending = ended ?? launcher.reap(pid, deadline: deadline, exitFD: exitFD, readsIO: direct) else {
            killProgram()
            throw timedOut
        }
        if exitReading == nil { exitReading = ending.exitReading ?? MonotonicClock.nanoseconds() }
        while reportOpen, ProcessLauncher.readable(pipes.reportFD) { try readReport() }
        // Through the spawner: the program's own end and `wait4`, not the spawner's.
        if pipes.reportFD >= 0 {
            if let exit = spawner.exit, let programEnding = launcher.spawnerEnding(spawner) {
                ending = programEnding
                exitReading = exit.reading
            } else {
                // The spawner itself was killed: how the program ended and what it used are unknown
                // (the spawner's own numbers are not the program's).
                ending.usageKnown = false
            }
        }
        return ending
    }

    /// The run's failure, if it failed: a report cut short by a crash (its end is the headline), a
    /// bad report, an exit before ready, a crash or a failing status (unless ignored).
    private func failIfEndedBadly(_ ending: ProcessLauncher.Ending, stderr: String) throws(RunnerError) {
        let ignoresFailure = launcher.program?.ignoreFailure == true
        let phase = parser.openPhaseNames.last ?? progress
        if let failure, !killedOverFailure, !ignoresFailure, let ended = launcher.endedBadly(ending, in: phase, stderr: stderr, cutShort: failure) {
            throw ended
        }
        if let failure { throw failure }
        if let readiness {
            throw .exitedBeforeReady(condition: readiness.description, status: ending.status, signal: ending.signal, stderr: stderr)
        }
        guard !ignoresFailure else { return }
        if let signal = ending.signal { throw .crashed(signal: signal, inPhase: phase, stderr: stderr) }
        if let status = ending.status, status != 0 { throw .exited(status: status, stderr: stderr) }
    }

    /// A program's record at its exit, from the spawner's reading (or this process's) to its exit.
    private func programRecordAtExit(_ ending: ProcessLauncher.Ending) throws(RunnerError) -> RunRecord {
        let origin = pipes.reportFD >= 0 ? spawner.spawnReading ?? spawnReading : spawnReading
        let end = exitReading ?? origin
        var record = try launcher.programRecord(
            parser: parser, protocolBytes: protocolBytes, ending: ending, endReading: end,
            origin: origin, launcherOrigin: spawnReading, index: index, pid: pid, ready: false,
            trace: trace.map { ($0.capture, $0.file, launcher.clock(of: $0.clock, spawner, origin: origin, end: end)) },
            stderr: stderrTruncated ? nil : stderrBytes)
        if let instructionCounting = launcher.instructionCounting { try instructionCounting.attach(to: &record, program: true) }
        return record
    }

    /// The built-in app's record: its complete report, its taps' fate, its expected marks.
    private func appRecord(_ ending: ProcessLauncher.Ending) throws(RunnerError) -> RunRecord {
        guard parser.finished else { throw .incomplete(lines: parser.lineNumber) }
        var record = parser.run(index: index, pid: Int(pid))
        record.spawnReading = spawnReading
        if !schedule.isEmpty {
            // Applied taps answer in delivery order; what was neither shown nor dropped is lost too.
            let shown = parser.tapShownReadings
            let latencies = zip(tapsSent, shown).map { sent, seen in seen > sent ? Double(seen - sent) / 1e9 : 0 }
            record.taps = TapRecord(delivered: tapsSent.count, lost: max(0, tapsSent.count - shown.count), latencies: latencies)
        }
        if let missing = launcher.expectedMarks.first(where: { name in !record.marks.contains { $0.name == name } }) {
            throw .missingMark(missing)
        }
        if record.peakResidentBytes == nil { record.peakResidentBytes = ending.peak }
        if let instructionCounting = launcher.instructionCounting { try instructionCounting.attach(to: &record) }
        return record
    }
}
