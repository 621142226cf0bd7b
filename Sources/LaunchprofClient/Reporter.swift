import CCallgrind
import Glibc
import Synchronization

/// The client's state: the descriptor (taken from `LAUNCHPROF_FD`), the `main` reading, thread
/// numbers, the greeting sent once, and the handshake that lets nothing follow `done`. The process
/// has one, ``shared``; tests make their own.
final class Reporter: Sendable {
    /// The process's reporter, made on first use from `LAUNCHPROF_FD`, which it then removes from the
    /// environment.
    static let shared: Reporter = {
        let reporter = Reporter(
            descriptorText: getenv(environmentVariable).map { String(cString: $0) }, countsInstructions: Reporter.countsInstructions,
            recordsCounters: getenv("LAUNCHPROF_COUNTERS").map { String(cString: $0) } != "0")
        if reporter.isActive {
            unsetenv(environmentVariable)
            pthread_atfork(nil, nil, { Reporter.shared.turnOff() })
        }
        // Under `launchprof exec --metric instructions`: the `main` dump, at the `main` line's reading.
        if reporter.countsInstructions { lp_callgrind_boundary("main", 0, -1) }
        return reporter
    }()

    static let environmentVariable = "LAUNCHPROF_FD"

    /// Whether this process is counted by `launchprof exec --metric instructions`: it runs under
    /// Valgrind with `LAUNCHPROF_METRIC=instructions`, and this build saw `valgrind/callgrind.h`.
    static var countsInstructions: Bool {
        guard let metric = getenv("LAUNCHPROF_METRIC"), String(cString: metric) == "instructions" else { return false }
        return lp_callgrind_compiled() != 0 && lp_running_on_valgrind() != 0
    }
    /// Thread numbers stay below the parser's limit; a thread past it reports nothing.
    static let threadLimit = 1 << 20

    /// The CLOCK_MONOTONIC reading when the reporter was made: the `main` line.
    let mainReading: UInt64
    /// Whether phase boundaries issue Callgrind dumps (docs/protocol.md, "Instruction counts").
    let countsInstructions: Bool
    /// Each thread's ``CallgrindPhases``, made on its first phase when counting.
    private let phasesKey: pthread_key_t
    /// Whether each phase's end is followed by its thread's system counters (docs/counters.md): not
    /// when counting instructions (the readings would be counted), nor with `LAUNCHPROF_COUNTERS=0`.
    let recordsCounters: Bool
    /// Each thread's ``PhaseCounterStack``, made on its first phase when recording counters.
    private let countersKey: pthread_key_t
    /// The descriptor, or -1 when off.
    private let descriptor: Atomic<Int32>
    /// Each thread's number plus one (0: not numbered yet).
    private let threadKey: pthread_key_t
    private let nextThread = Atomic<Int>(1)
    private let greeted = Atomic<Bool>(false)
    private let greetingLock = Mutex<Void>(())
    /// Events being written now, and whether `done` was called.
    private let writing = Atomic<Int>(0)
    private let finished = Atomic<Bool>(false)

    /// A reporter on the descriptor `descriptorText` names (decimal digits only, at most `Int32.max`,
    /// open for writing), or an inactive one. The calling thread is number 0; the descriptor is made
    /// close-on-exec.
    init(descriptorText: String?, countsInstructions: Bool = false, recordsCounters: Bool = false) {
        mainReading = Self.now()
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        threadKey = key
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
        var phases = pthread_key_t()
        pthread_key_create(&phases) { stored in if let stored { Unmanaged<CallgrindPhases>.fromOpaque(stored).release() } }
        phasesKey = phases
        var counters = pthread_key_t()
        pthread_key_create(&counters) { stored in if let stored { Unmanaged<PhaseCounterStack>.fromOpaque(stored).release() } }
        countersKey = counters
        let usable = Self.usableDescriptor(descriptorText)
        descriptor = Atomic(usable ?? -1)
        self.countsInstructions = countsInstructions && usable != nil
        self.recordsCounters = recordsCounters && !self.countsInstructions && usable != nil
    }

    deinit {
        pthread_key_delete(threadKey)
        pthread_key_delete(phasesKey)
        pthread_key_delete(countersKey)
    }

    /// This thread's ``PhaseCounterStack``, made on first use.
    private var counterStack: PhaseCounterStack {
        if let stored = pthread_getspecific(countersKey) { return Unmanaged<PhaseCounterStack>.fromOpaque(stored).takeUnretainedValue() }
        let stack = PhaseCounterStack()
        pthread_setspecific(countersKey, Unmanaged.passRetained(stack).toOpaque())
        return stack
    }

    private static func usableDescriptor(_ text: String?) -> Int32? {
        guard let text, !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Int32(text)
        else { return nil }
        let flags = fcntl(value, F_GETFL)
        guard flags >= 0, flags & O_ACCMODE != O_RDONLY else { return nil }
        let descriptorFlags = fcntl(value, F_GETFD)
        if descriptorFlags >= 0 { _ = fcntl(value, F_SETFD, descriptorFlags | FD_CLOEXEC) }
        return value
    }

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    var isActive: Bool {
        descriptor.load(ordering: .relaxed) >= 0 && !finished.load(ordering: .sequentiallyConsistent)
    }

    func turnOff() {
        descriptor.store(-1, ordering: .relaxed)
    }

    // MARK: Events

    func begin(_ name: String, kind: Launchprof.Kind?) {
        event("begin ", timed: true, kind: kind?.rawValue ?? "-", name: name, boundary: 1)
    }

    func end(_ name: String) {
        event("end ", timed: true, name: name, boundary: -1)
    }

    func mark(_ name: String) {
        event("mark ", timed: true, name: name)
    }

    func count(_ value: Int, _ name: String) {
        event("count ", timed: false, value: value, name: name)
    }

    func done() {
        guard descriptor.load(ordering: .relaxed) >= 0,
            !finished.exchange(true, ordering: .sequentiallyConsistent)
        else { return }
        while writing.load(ordering: .sequentiallyConsistent) != 0 { sched_yield() }
        let fd = greetOnce()
        guard fd >= 0 else { return }
        EventLine.withLine { line in
            line.append("done ")
            line.append(Self.now())
            line.appendByte(UInt8(ascii: "\n"))
            send(line.bytes, to: fd)
        }
    }

    /// One event: `verb` (with its space), then the time and thread (`timed`), the kind, the count,
    /// the name.
    /// `boundary`: 1 for a phase's begin, -1 for its end (their Callgrind dumps when counting), 0 otherwise.
    private func event(_ verb: String, timed: Bool, kind: String? = nil, value: Int? = nil, name: String, boundary: Int = 0) {
        guard descriptor.load(ordering: .relaxed) >= 0 else { return }
        // A phase's end reading first, so the client's own work is not in it.
        let counters = recordsCounters && boundary != 0 ? counterStack : nil
        let stats = boundary < 0 ? counters?.ending() : nil
        let now = timed ? Self.now() : 0
        let thread = timed ? threadNumber() : 0
        guard thread < Self.threadLimit else { return }
        // With done()'s exchange and wait, either this sees `finished` or done() waits for this event.
        writing.add(1, ordering: .sequentiallyConsistent)
        defer { writing.subtract(1, ordering: .sequentiallyConsistent) }
        guard !finished.load(ordering: .sequentiallyConsistent) else { return }
        let fd = greetOnce()
        guard fd >= 0 else { return }
        EventLine.withLine { line in
            line.append(verb)
            if timed {
                line.append(now)
                line.appendByte(UInt8(ascii: " "))
                line.append(thread)
                line.appendByte(UInt8(ascii: " "))
            }
            if let kind {
                line.append(kind)
                line.appendByte(UInt8(ascii: " "))
            }
            if let value {
                line.append(value)
                line.appendByte(UInt8(ascii: " "))
            }
            line.appendName(name)
            line.appendByte(UInt8(ascii: "\n"))
            // The phase's count starts after its begin line is written and ends before its end line is.
            if boundary < 0, countsInstructions { callgrindBoundary(boundary, thread: thread) }
            send(line.bytes, to: fd)
            if boundary > 0, countsInstructions { callgrindBoundary(boundary, thread: thread) }
            counters?.ownWritten &+= UInt64(line.bytes.count)
        }
        if let stats, let counters {
            EventLine.withLine { line in
                line.append("stats ")
                line.append(thread)
                line.appendByte(UInt8(ascii: " "))
                line.append(stats)
                line.appendByte(UInt8(ascii: "\n"))
                send(line.bytes, to: fd)
                counters.ownWritten &+= UInt64(line.bytes.count)
            }
        }
        // A phase's begin reading last, after its begin line is written.
        if boundary > 0 { counters?.began() }
    }

    /// The Callgrind dump at a phase boundary of this thread, labelled by the thread's number and the
    /// phase's index among the phases it began (`launchprof begin 0 3`).
    private func callgrindBoundary(_ boundary: Int, thread: Int) {
        let phases: CallgrindPhases
        if let stored = pthread_getspecific(phasesKey) {
            phases = Unmanaged<CallgrindPhases>.fromOpaque(stored).takeUnretainedValue()
        } else {
            phases = CallgrindPhases()
            pthread_setspecific(phasesKey, Unmanaged.passRetained(phases).toOpaque())
        }
        if boundary > 0 {
            let index = phases.begun
            phases.begun += 1
            phases.open.append(index)
            lp_callgrind_boundary("begin", thread, index)
        } else if let index = phases.open.popLast() {
            lp_callgrind_boundary("end", thread, index)
        }
    }

    /// This thread's number: given on its first event.
    private func threadNumber() -> Int {
        let stored = Int(bitPattern: pthread_getspecific(threadKey))
        if stored > 0 { return stored - 1 }
        let number = nextThread.wrappingAdd(1, ordering: .relaxed).oldValue
        pthread_setspecific(threadKey, UnsafeRawPointer(bitPattern: min(number, Self.threadLimit) + 1))
        return min(number, Self.threadLimit)
    }

    /// Sends the greeting and the `main` line before the first event; returns the descriptor
    /// (-1 when off).
    private func greetOnce() -> Int32 {
        if !greeted.load(ordering: .acquiring) {
            greetingLock.withLock { _ in
                guard !greeted.load(ordering: .relaxed) else { return }
                EventLine.withLine { line in
                    line.append("launchprof 1\nmain ")
                    line.append(mainReading)
                    line.appendByte(UInt8(ascii: "\n"))
                    send(line.bytes, to: descriptor.load(ordering: .relaxed))
                }
                greeted.store(true, ordering: .releasing)
            }
        }
        return descriptor.load(ordering: .relaxed)
    }

    private func send(_ bytes: UnsafeRawBufferPointer, to fd: Int32) {
        if !PipeWrite.all(bytes, to: fd) { turnOff() }
    }
}

/// One thread's phases as its Callgrind dumps number them: the next phase's index and the open ones'.
/// Used by its own thread only (kept in a thread-specific key).
final class CallgrindPhases {
    var begun = 0
    var open: [Int] = []
}
