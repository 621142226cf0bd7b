#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchTiers

/// A thread that makes a launcher's spawns and does nothing else (``ProcessLauncher/spawningThread``).
///
/// `--sample`'s perf is attached to this thread alone (`perf record --tid T --inherit`,
/// docs/sampling.md): a process spawned here inherits perf's events, so the launched program is
/// sampled from its first instruction, while launchprof's own threads (reading the run's protocol,
/// waiting for it) carry no event at all. The thread sleeps between spawns: it costs perf nothing
/// but its two switches a run.
public final class SpawningThread: @unchecked Sendable {
    /// The thread's kernel id (what `perf record --tid` takes).
    public let tid: pid_t
    private let lock = ConditionLock()
    private let state: State
    private var thread = pthread_t()

    /// What the caller and the thread share, under ``lock``.
    private final class State: @unchecked Sendable {
        let lock: ConditionLock
        var job: (() -> Void)?
        var finished = false
        var stopping = false
        var tid: pid_t = 0

        init(lock: ConditionLock) { self.lock = lock }
    }

    /// Starts the thread; `nil` when it cannot be started (or its id is unknown).
    public init?() {
        let state = State(lock: lock)
        self.state = state
        guard let started = NativeThread.start({ SpawningThread.serve(state) }) else { return nil }
        thread = started
        _ = lock.wait(until: .max) { state.tid != 0 }
        tid = state.tid
        guard tid > 0 else {
            stop()
            return nil
        }
    }

    deinit { stop() }

    /// Runs `body` on the thread and returns what it returned; the caller waits meanwhile (so
    /// `body` may use the caller's variables: the hand-over is ordered by the lock).
    public func perform<R>(_ body: () -> R) -> R {
        let box = UncheckedBox<R?>(nil)
        // The job is dropped by the thread before it says it finished: `body` does not outlive this call.
        withoutActuallyEscaping(body) { body in
            lock.withLock {
                state.finished = false
                state.job = { box.value = body() }
            }
            lock.broadcast()
            _ = lock.wait(until: .max) { state.finished }
        }
        return box.value!
    }

    /// Ends the thread (once its current job is done) and waits for it.
    private func stop() {
        let running = lock.withLock { () -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard running else { return }
        lock.broadcast()
        pthread_join(thread, nil)
    }

    /// The thread's loop: its id first, then each job until stopped.
    private static func serve(_ state: State) {
        let tid = LinuxThreadCalls.currentThread()
        state.lock.withLock { state.tid = tid > 0 ? tid : -1 }
        state.lock.broadcast()
        while true {
            var job: (() -> Void)?
            _ = state.lock.wait(until: .max) { state.job != nil || state.stopping }
            let stopping = state.lock.withLock { () -> Bool in
                job = state.job
                state.job = nil
                return state.stopping && job == nil
            }
            if stopping { return }
            job?()
            job = nil
            state.lock.withLock { state.finished = true }
            state.lock.broadcast()
        }
    }
}

/// A value handed between threads whose hand-over a lock orders.
private final class UncheckedBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

extension ProcessLauncher {
    /// `spawn`, on ``spawningThread`` when there is one (else on this thread).
    func onSpawningThread<R>(_ spawn: () throws(RunnerError) -> R) throws(RunnerError) -> R {
        guard let spawningThread else { return try spawn() }
        return try spawningThread.perform { () -> Result<R, RunnerError> in
            do throws(RunnerError) { return .success(try spawn()) } catch { return .failure(error) }
        }.get()
    }
}
