#if canImport(Glibc)
import Glibc
#endif

/// The one place where everything launchprof must undo before it ends is recorded: the processes a
/// run started (process groups, run cgroups) and the temporary files and directories it made. Each
/// is registered as a cleanup action when it is made and unregistered when its owner has undone it.
///
/// ``installSignalHandling()`` (first thing in `main`) routes SIGINT, SIGTERM and SIGHUP to a
/// thread of its own: the handler only writes the signal's number to a pipe; that thread runs the
/// registered actions (newest first: a run's processes are ended before the directory they write
/// into is removed) as ordinary code, then ends launchprof by the same signal (exit status
/// 128 + signal); a second signal meanwhile ends it at once. An `exit()` (a normal end or an
/// error) runs the actions still registered too.
///
/// Once cleaning up has begun, nothing new may be registered: a thread that tries waits for the
/// end. Code that creates something and registers it does both inside ``guarded(_:)``, so that a
/// cleanup either sees the registration or the creation never happens.
public enum ExitCleanup {
    /// A registered action, to pass to ``unregister(_:)``.
    public struct Registration: Hashable, Sendable {
        let number: Int
    }

    private struct State: @unchecked Sendable {
        var mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        init() { pthread_mutex_init(mutex, nil) }
    }

    private static let state = State()
    nonisolated(unsafe) private static var actions: [(number: Int, action: @Sendable () -> Void)] = []
    nonisolated(unsafe) private static var nextNumber = 0
    nonisolated(unsafe) private static var closing = false
    /// Set once the cleanup thread has begun: a second signal then ends launchprof at once.
    nonisolated(unsafe) private static var cleaningAfterSignal: Int32 = 0
    /// The pipe from the signal handler to the cleanup thread (read end, write end).
    nonisolated(unsafe) private static var signalPipe: (Int32, Int32) = (-1, -1)
    /// The signals that end launchprof after cleaning up.
    public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Calls `body` holding the registry's lock, so that what it makes and registers (with the
    /// `register` it is given) cannot slip past a cleanup that is starting. Once cleaning up has
    /// begun, waits for the end instead of calling `body`. Keep `body` short and non-blocking.
    public static func guarded<R>(_ body: (_ register: (@escaping @Sendable () -> Void) -> Registration) throws -> R) rethrows -> R {
        lock()
        if closing {
            unlock()
            waitForTheEnd()
        }
        defer { unlock() }
        return try body { action in
            nextNumber += 1
            actions.append((nextNumber, action))
            return Registration(number: nextNumber)
        }
    }

    /// Calls `body`, which gives something a name in the file system (a directory, a file renamed
    /// into place), so that a cleanup under way cannot miss it: either the cleanup starts after
    /// `body` and removes what it made, or `body` never runs. Keep `body` to the creating calls.
    public static func creating<R>(_ body: () throws -> R) rethrows -> R {
        try guarded { _ in try body() }
    }

    /// Registers `action` to run if launchprof ends before ``unregister(_:)``.
    public static func register(_ action: @escaping @Sendable () -> Void) -> Registration {
        guarded { register in register(action) }
    }

    /// Forgets an action (its owner has done what it would do). A no-op once cleaning up has begun.
    public static func unregister(_ registration: Registration) {
        lock()
        defer { unlock() }
        actions.removeAll { $0.number == registration.number }
    }

    /// Runs one registered action now, as the end of launchprof would, and forgets it (for tests of
    /// what an interruption does).
    static func runNow(_ registration: Registration) {
        lock()
        let index = actions.firstIndex { $0.number == registration.number }
        let entry = index.map { actions.remove(at: $0) }
        unlock()
        entry?.action()
    }

    /// Whether `registration` is still registered.
    static func isRegistered(_ registration: Registration) -> Bool {
        lock()
        defer { unlock() }
        return actions.contains { $0.number == registration.number }
    }

    /// Runs and forgets every registered action, newest first, exactly once; later calls (another
    /// thread ending at the same moment) wait for the end. For the cleanup thread and `exit()`.
    static func runAll() {
        lock()
        if closing {
            unlock()
            waitForTheEnd()
        }
        closing = true
        let pending = actions
        actions = []
        unlock()
        for entry in pending.reversed() { entry.action() }
    }

    /// Routes SIGINT, SIGTERM and SIGHUP to the cleanup thread and runs the actions at `exit()`.
    /// Call once, first thing in `main`. A signal launchprof was started with ignored (`nohup`)
    /// stays ignored.
    public static func installSignalHandling() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        signalPipe = (fds[0], fds[1])
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { _ in ExitCleanup.cleanupThread() }, nil) == 0 else { return }
        pthread_detach(thread)
        atexit { ExitCleanup.runAtExit() }
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in signals {
            var current = sigaction()
            sigaction(signal, nil, &current)
            if unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { received in
                // A second signal while cleaning up (a cleanup that hangs): end now, by the signal.
                if ExitCleanup.cleaningAfterSignal != 0 {
                    Glibc.signal(received, SIG_DFL)
                    raise(received)
                    return
                }
                // Async-signal-safe: one write of one byte; errno is kept for the interrupted code.
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(ExitCleanup.signalPipe.1, &byte, 1)
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
            sigaddset(&unblock, signal)
        }
        // A parent may have started launchprof with these blocked; they must reach the handler.
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// Waits for a signal's number on the pipe, cleans up, and ends the process by that signal.
    private static func cleanupThread() -> UnsafeMutableRawPointer? {
        var byte: UInt8 = 0
        while true {
            let n = read(signalPipe.0, &byte, 1)
            if n == 1 { break }
            if n < 0 && errno == EINTR { continue }
            return nil
        }
        let received = Int32(byte)
        cleaningAfterSignal = 1
        runAll()
        // Ended by the signal itself, as without a handler: the parent sees it (a shell, 128 + signal).
        signal(received, SIG_DFL)
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, received)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        raise(received)
        _exit(128 + received)
    }

    /// At `exit()`: runs what is still registered. If the cleanup thread is already at it, waits for
    /// it to end the process instead of ending it under its feet.
    private static func runAtExit() {
        runAll()
    }

    /// Blocks the calling thread for good: the cleanup under way ends the process.
    private static func waitForTheEnd() -> Never {
        while true { pause() }
    }

    private static func lock() { pthread_mutex_lock(state.mutex) }
    private static func unlock() { pthread_mutex_unlock(state.mutex) }
}
