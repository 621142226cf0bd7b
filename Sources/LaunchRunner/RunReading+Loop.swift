#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// The reading loop: one pass per wake-up, until the pipes close (and the program has exited or is
/// ready), the deadline, or a failure.
extension RunReading {
    /// Reads until the run's end; throws when it timed out or overstayed its background budget.
    mutating func readUntilEnd() throws(RunnerError) {
        while protocolOpen || errorOpen || outputOpen || reportOpen || (readiness != nil && ended == nil) {
            let now = MonotonicClock.nanoseconds()
            if try reachedEnd(now) { break }
            if probes, let readiness, now >= nextProbe {
                if readiness.probe() { readyReading = MonotonicClock.nanoseconds(); break }
                nextProbe = MonotonicClock.nanoseconds() &+ Readiness.probeIntervalNanoseconds
            }
            if ended == nil, now >= backgroundDeadline, let budget = launcher.backgroundBudget {
                killProgram()
                throw .killedInBackground(seconds: budget, inPhase: progress ?? parser.openPhaseNames.last)
            }
            sendDueInput(now)
            guard let fds = waitForInput(now) else { break }
            if let fds { try readReady(fds) }
        }
    }

    /// Notes the program's exit (it may come before its pipes close) and ready; whether the loop is
    /// over. Throws at the deadline.
    private mutating func reachedEnd(_ now: UInt64) throws(RunnerError) -> Bool {
        if ended == nil, let exit = launcher.reap(pid, deadline: 0, readsIO: direct) {
            ended = exit
            exitReading = exit.exitReading ?? now
            drainDeadline = now &+ ProcessLauncher.drainNanoseconds
        }
        if readyReading == nil, let matched = matcher?.matchedReading { readyReading = matched }
        if readyReading != nil { return true }
        // Exited before it was ready (once every line it wrote has been tested).
        if ended != nil, readiness != nil, matcher?.isIdle ?? true { return true }
        if ended != nil, now >= drainDeadline || now >= deadline { return true }  // Something it started holds the pipes.
        if now >= deadline {
            killProgram()
            throw timedOut
        }
        return false
    }

    /// Taps whose time has come, then (the launch over and every tap sent) the lines after launch.
    private mutating func sendDueInput(_ now: UInt64) {
        let controlFD = pipes.controlFD
        while ended == nil, controlFD >= 0, tapsSent.count < schedule.count, now >= tapDue(tapsSent.count) {
            ProcessLauncher.send([ControlCommand.tap(schedule[tapsSent.count].key)], to: controlFD)
            tapsSent.append(MonotonicClock.nanoseconds())
        }
        if !controlSent, tapsSent.count == schedule.count, parser.sawMark(AppInterface.interactiveMark) {
            ProcessLauncher.send(launcher.inputAfterLaunch, to: controlFD)
            shutdown(controlFD, Int32(SHUT_WR))
            controlSent = true
            launcher.onInputAfterLaunchSent?()
            if let budget = launcher.backgroundBudget, launcher.inputAfterLaunch.contains(.background) {
                backgroundDeadline = MonotonicClock.nanoseconds() &+ UInt64(min(max(0, budget), 86_400) * 1e9)
            }
        }
    }

    /// Polls what is open until something is readable or the next thing is due: the descriptors that
    /// are (`.some(nil)`: none, go round again), or `nil` when poll failed.
    private func waitForInput(_ now: UInt64) -> [pollfd]?? {
        var fds = [
            pollfd(fd: protocolOpen ? pipes.protocolFD : -1, events: Int16(POLLIN), revents: 0),
            pollfd(fd: errorOpen ? pipes.errorFD : -1, events: Int16(POLLIN), revents: 0),
            pollfd(fd: outputOpen ? pipes.outputFD : -1, events: Int16(POLLIN), revents: 0),
            pollfd(fd: ended == nil ? exitFD : -1, events: Int16(POLLIN), revents: 0),
            // The spawner reports once the program has ended, just before it exits itself: read
            // after its exit (one wake-up per run instead of two).
            pollfd(fd: reportOpen && ended != nil ? pipes.reportFD : -1, events: Int16(POLLIN), revents: 0),
            pollfd(fd: matcher?.matchDescriptor ?? -1, events: Int16(POLLIN), revents: 0)
        ]
        // Until the program has exited: short waits when its exit cannot be polled, so it is
        // noticed while a pipe stays open; 1 ms while a ready condition is probed.
        var waitNs = min(deadline, drainDeadline) - now
        if tapsSent.count < schedule.count { waitNs = min(waitNs, tapDue(tapsSent.count) > now ? tapDue(tapsSent.count) - now : 0) }
        if probes { waitNs = min(waitNs, nextProbe > now ? nextProbe - now : 0) }
        let cap: UInt64 = ended == nil && exitFD < 0 ? 20 : 1000
        let waitMs = Int32(min(cap, max(probes ? 0 : 1, (waitNs + 999_999) / 1_000_000)))
        let ready = poll(&fds, nfds_t(fds.count), waitMs)
        if ready < 0 && errno != EINTR { return nil }
        return ready <= 0 ? .some(nil) : fds
    }

    /// Reads each descriptor `fds` found readable.
    private mutating func readReady(_ fds: [pollfd]) throws(RunnerError) {
        if reportOpen, fds[4].revents != 0 { try readReport() }
        if protocolOpen, fds[0].revents != 0, !readProtocol() { return }
        for (slot, fd) in [(1, pipes.errorFD), (2, pipes.outputFD)] where fds[slot].revents != 0 && (slot == 1 ? errorOpen : outputOpen) {
            readStream(fd, slot: slot)
        }
    }

    /// Reads what the spawner reported (after the program ended, so as not to wake this process
    /// while the program runs).
    mutating func readReport() throws(RunnerError) {
        let reportFD = pipes.reportFD
        let n = buffer.withUnsafeMutableBytes { read(reportFD, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { return }
        if n <= 0 { reportOpen = false; return }
        spawner.consume(buffer[0..<n])
        if let error = spawner.spawnError {
            kill(-pid, SIGKILL)
            _ = launcher.reap(pid, deadline: nil)
            throw .spawnFailed(executable: launcher.executable, reason: String(cString: strerror(error)))
        }
    }

    /// Reads the protocol pipe and parses its complete lines; `false` when interrupted (go round again).
    private mutating func readProtocol() -> Bool {
        let protocolFD = pipes.protocolFD
        let n = buffer.withUnsafeMutableBytes { read(protocolFD, $0.baseAddress, $0.count) }
        if n <= 0 {
            if n < 0 && errno == EINTR { return false }
            protocolOpen = false
            return true
        }
        guard failure == nil else { return true }
        protocolBytes += n
        // Lines are looked for only when a newline arrived: a long line read in many pieces is
        // scanned once, not once per piece.
        let newlineArrived = buffer[0..<n].contains(UInt8(ascii: "\n"))
        pending.append(contentsOf: buffer[0..<n])
        do throws(CoreError) {
            if newlineArrived {
                try launcher.consumeLines(&pending, into: &parser, records: &records, progress: &progress)
            } else if pending.count > 1 << 20 {
                throw CoreError.protocolLine(line: parser.lineNumber + 1, reason: "a line longer than 1 MiB")
            }
        } catch {
            failure = .garbage(error)
        }
        if failure == nil, protocolBytes > launcher.protocolByteLimit {
            failure = .overLimit("more than \(launcher.protocolByteLimit >> 20) MiB of protocol output")
        } else if failure == nil, records > launcher.protocolRecordLimit {
            failure = .overLimit("more than \(launcher.protocolRecordLimit) begin, mark, count and deferred lines")
        }
        if failure != nil {
            killedOverFailure = true
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
        return true
    }

    /// Reads stderr (slot 1: kept up to its limit) or stdout (slot 2), shown with --show-output and
    /// tested against the ready pattern.
    private mutating func readStream(_ fd: Int32, slot: Int) {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 {
            if n < 0 && errno == EINTR { return }
            if slot == 1 { errorOpen = false } else { outputOpen = false }
            return
        }
        if launcher.program?.showOutput == true { StandardStreams.copyToStandardError(buffer[0..<n]) }
        if slot == 1 {
            if stderrBytes.count + n > stderrLimit { stderrTruncated = true }
            if stderrBytes.count < stderrLimit { stderrBytes.append(contentsOf: buffer[0..<min(n, stderrLimit - stderrBytes.count)]) }
        }
        scanForReady(buffer[0..<n], stream: slot == 2 ? 0 : 1, now: MonotonicClock.nanoseconds())
    }

    /// Queues the complete lines of `bytes` (stream 0 stdout, 1 stderr) for the ready pattern.
    private mutating func scanForReady(_ bytes: ArraySlice<UInt8>, stream: Int, now: UInt64) {
        guard let matcher, readyReading == nil else { return }
        let limit = ProgramOptions.maximumReadyLineBytes
        var rest = bytes
        while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
            if partialLines[stream].count < limit { partialLines[stream] += rest[..<newline].prefix(limit - partialLines[stream].count) }
            matcher.submit(partialLines[stream], reading: now)
            partialLines[stream].removeAll(keepingCapacity: true)
            rest = rest[(newline + 1)...]
        }
        if partialLines[stream].count < limit { partialLines[stream] += rest.prefix(limit - partialLines[stream].count) }
    }
}
