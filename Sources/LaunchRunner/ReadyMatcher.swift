#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// Tests a program's output lines against its `--ready-when-output` pattern on a thread of its own,
/// so that no pattern can hold the launcher's read loop: `regexec` with back-references is
/// exponential (`(.*)(.*)(.*)\3\2\1x` on a 3,000-character line runs for minutes), and the loop must
/// still honour `--timeout`. A line keeps the reading at which it was read: a slow match does not
/// make the program's ready time late.
///
/// A match that never ends is abandoned with its thread (``stop()``), which runs until it ends or
/// launchprof exits; the run has failed by its timeout by then.
final class ReadyMatcher: @unchecked Sendable {
    /// The most bytes of lines waiting to be tested (16 MiB, `docs/limits.md`); lines past it are
    /// not tested (a pattern that slow would not see them before the timeout anyway).
    static let maximumQueuedBytes = 16 << 20

    private let regex: ExtendedRegex
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var queue: [(line: [UInt8], reading: UInt64)] = []
    private var head = 0
    private var queuedBytes = 0
    private var testing = false
    private var stopped = false
    private var matched: UInt64?
    /// Readable once a line matched (the read loop polls it with its pipes).
    let matchDescriptor: Int32
    private let signalDescriptor: Int32

    /// Starts the matching thread; `nil` when no thread or pipe can be made.
    init?(_ regex: ExtendedRegex) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        self.regex = regex
        matchDescriptor = fds[0]
        signalDescriptor = fds[1]
        pthread_mutex_init(lock, nil)
        pthread_cond_init(wake, nil)
        // The thread holds the matcher until it ends, so an abandoned match never outlives its state.
        guard let thread = NativeThread.start({ self.work() }) else { return nil }
        pthread_detach(thread)
    }

    deinit {
        close(matchDescriptor)
        close(signalDescriptor)
        pthread_cond_destroy(wake)
        pthread_mutex_destroy(lock)
        lock.deallocate()
        wake.deallocate()
    }

    /// Queues a complete line read at `reading` (launchprof's monotonic clock).
    func submit(_ line: [UInt8], reading: UInt64) {
        locked {
            guard !stopped, matched == nil, queuedBytes + line.count <= Self.maximumQueuedBytes else { return }
            queue.append((line, reading))
            queuedBytes += line.count
            pthread_cond_signal(wake)
        }
    }

    /// The reading of the first line that matched, once one has.
    var matchedReading: UInt64? { locked { matched } }

    /// `true` when every queued line has been tested.
    var isIdle: Bool { locked { !testing && head == queue.count } }

    /// Waits until a line matched (its reading), every queued line was tested (`nil`), or the
    /// monotonic clock reaches `deadline` (`nil`, lines still untested).
    func waitForVerdict(until deadline: UInt64) -> UInt64? {
        while true {
            if let matched = matchedReading { return matched }
            if isIdle { return nil }
            let now = MonotonicClock.nanoseconds()
            if now >= deadline { return nil }
            var entry = pollfd(fd: matchDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, Int32(min(10, (deadline - now + 999_999) / 1_000_000)))
        }
    }

    /// Ends the thread after the line it is testing (if any); queued lines are dropped.
    func stop() {
        locked {
            stopped = true
            pthread_cond_signal(wake)
        }
    }

    private func work() {
        while let (line, reading) = next() {
            let found = regex.matches(line)
            locked {
                testing = false
                if found, matched == nil {
                    matched = reading
                    var byte: UInt8 = 1
                    _ = write(signalDescriptor, &byte, 1)
                }
            }
        }
    }

    /// The next line to test, waiting for one; `nil` once stopped or matched.
    private func next() -> ([UInt8], UInt64)? {
        locked {
            while !stopped, matched == nil, head == queue.count { pthread_cond_wait(wake, lock) }
            guard !stopped, matched == nil else { return nil }
            let entry = queue[head]
            queue[head].line = []
            head += 1
            queuedBytes -= entry.line.count
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            }
            testing = true
            return entry
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }
}
