import Glibc

/// One thread's system counters for its phases (docs/counters.md): the readings at the begin of its
/// open phases, and the files it reads them from (`/proc/thread-self/schedstat` and `io`, opened on
/// its first phase and closed when the thread exits). Used by its own thread only (a thread-specific key).
final class PhaseCounterStack {
    /// A reading: CPU ns, run delay ns, minor and major faults, voluntary and involuntary switches,
    /// bytes read and written (`UInt64.max` for a value that could not be read).
    typealias Reading = [UInt64]

    /// Readings deeper than this are not taken: deeper phases have no counters.
    static let maximumDepth = 32
    private let schedstat = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC)
    private let io = open("/proc/thread-self/io", O_RDONLY | O_CLOEXEC)
    /// Bytes the client's own reads of `/proc` and writes of protocol lines added to the thread's `io`.
    var ownRead: UInt64 = 0
    var ownWritten: UInt64 = 0
    private var starts: [Reading] = []
    private var depth = 0

    deinit {
        if schedstat >= 0 { close(schedstat) }
        if io >= 0 { close(io) }
    }

    /// A phase began (after its line was written): its reading, when within ``maximumDepth``.
    func began() {
        depth += 1
        if depth <= Self.maximumDepth { starts.append(read()) }
    }

    /// A phase is ending (before its line is written): the `stats` fields of its counters, or `nil`
    /// past ``maximumDepth``.
    func ending() -> String? {
        guard depth > 0 else { return nil }
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth, let start = starts.popLast() else { return nil }
        let end = read()
        func delta(_ i: Int) -> UInt64 { end[i] > start[i] ? end[i] - start[i] : 0 }
        var fields = "cpu=\(delta(0))"
        if end[1] != .max { fields += " runnable=\(delta(1))" }
        fields += " minflt=\(delta(2)) majflt=\(delta(3)) vcsw=\(delta(4)) ivcsw=\(delta(5))"
        if end[6] != .max { fields += " rchar=\(delta(6)) wchar=\(delta(7))" }
        return fields
    }

    /// The thread's counters now, the client's own bytes left out.
    private func read() -> Reading {
        var reading = Reading(repeating: 0, count: 8)
        let own = ownRead
        if let numbers = numbers(io) {
            reading[6] = numbers.0 > own ? numbers.0 - own : 0
            reading[7] = numbers.1 > ownWritten ? numbers.1 - ownWritten : 0
        } else {
            reading[6] = .max
            reading[7] = .max
        }
        reading[1] = numbers(schedstat)?.1 ?? .max
        var usage = rusage()
        if getrusage(1 /* RUSAGE_THREAD */, &usage) == 0 {
            reading[2] = UInt64(usage.ru_minflt)
            reading[3] = UInt64(usage.ru_majflt)
            reading[4] = UInt64(usage.ru_nvcsw)
            reading[5] = UInt64(usage.ru_nivcsw)
        }
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        reading[0] = UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
        return reading
    }

    /// The first two decimal numbers of the file `fd`, read at offset 0; `nil` when unreadable.
    private func numbers(_ fd: Int32) -> (UInt64, UInt64)? {
        guard fd >= 0 else { return nil }
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &buffer) { raw -> (UInt64, UInt64)? in
            let n = pread(fd, raw.baseAddress, raw.count, 0)
            guard n > 0 else { return nil }
            ownRead &+= UInt64(n)
            var found: [UInt64] = [], value: UInt64 = 0, inNumber = false
            for c in raw[0..<n] + [32] where found.count < 2 {
                if c >= 48 && c <= 57 {
                    value = value &* 10 &+ UInt64(c - 48)
                    inNumber = true
                } else if inNumber {
                    found.append(value)
                    value = 0
                    inNumber = false
                }
            }
            return found.count == 2 ? (found[0], found[1]) : nil
        }
    }
}
