#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// A session whose launches overlap (`--relaunch-after`): each launch runs on a thread of its own
/// and the next starts `delay` seconds after the previous one was sent to the background, as a
/// user reopening an app they just left; both run to their end, and their records come back in
/// order. The first failure, in launch order, fails the session once every launch has ended.
struct OverlappingLaunches: @unchecked Sendable {
    let session: LaunchSession
    let delay: Double

    /// One launch in flight: its thread, and what it gives, under a mutex.
    final class Flight: @unchecked Sendable {
        var mutex = pthread_mutex_t()
        var condition = pthread_cond_t()
        var sentToBackground = false
        var outcome: Result<RunRecord, RunnerError>?
        /// `nil` when no thread could be started (the outcome is then that failure).
        var thread: pthread_t?
        var launcher: ProcessLauncher?
        var executor: any LaunchExecutor = ProcessExecutor()
        let index: Int
        /// Monotonic nanoseconds at the spawn and at the end of the launch.
        var started: UInt64 = 0
        var ended: UInt64 = 0

        init(index: Int) {
            self.index = index
            pthread_mutex_init(&mutex, nil)
            pthread_cond_init(&condition, nil)
        }

        deinit {
            pthread_cond_destroy(&condition)
            pthread_mutex_destroy(&mutex)
        }

        func signal(_ update: (Flight) -> Void) {
            pthread_mutex_lock(&mutex)
            update(self)
            pthread_cond_broadcast(&condition)
            pthread_mutex_unlock(&mutex)
        }

        /// Waits until the launch was sent to the background or ended.
        func waitForBackground() {
            pthread_mutex_lock(&mutex)
            while !sentToBackground && outcome == nil { pthread_cond_wait(&condition, &mutex) }
            pthread_mutex_unlock(&mutex)
        }

        /// The launch, on its own thread: its record or its error, and when it ended.
        func run() {
            let result: Result<RunRecord, RunnerError>
            if let launcher {
                do throws(RunnerError) { result = .success(try executor.launch(launcher, index: index)) } catch {
                    result = .failure(error)
                }
            } else {
                result = .failure(.incomplete(lines: 0))
            }
            let ended = MonotonicClock.nanoseconds()
            signal {
                $0.outcome = result; $0.ended = ended
            }
        }
    }

    func run(progress: @escaping @Sendable (LaunchSession.Event) -> Void) throws(RunnerError) -> [RunRecord] {
        let total = session.warmup + session.runs
        guard total > 0 else { return [] }
        var flights: [Flight] = []
        for number in 1...total {
            if let previous = flights.last { pause(after: previous) }
            let isWarmup = number <= session.warmup
            progress(.starting(number: number, total: total, warmup: isWarmup))
            if !session.coldFiles.isEmpty { PageCache.evict(session.coldFiles) }
            // Measured launches are numbered from 1 (warm-ups come first, as 0).
            flights.append(launch(index: isWarmup ? 0 : number - session.warmup, progress: progress))
        }
        return try records(of: flights, progress: progress)
    }

    /// Waits until `previous` was sent to the background (or ended), then ``delay`` seconds.
    private func pause(after previous: Flight) {
        previous.waitForBackground()
        var pause = timespec(tv_sec: Int(delay), tv_nsec: Int((delay - delay.rounded(.down)) * 1e9))
        var left = timespec()
        while nanosleep(&pause, &left) != 0 && errno == EINTR { pause = left }
    }

    /// Starts launch `index` on a thread of its own.
    private func launch(index: Int, progress: @escaping @Sendable (LaunchSession.Event) -> Void) -> Flight {
        var launcher = session.launcher
        launcher.onProgress = { progress(.stage($0)) }
        let flight = Flight(index: index)
        launcher.onInputAfterLaunchSent = { [flight] in flight.signal { $0.sentToBackground = true } }
        flight.launcher = launcher
        flight.executor = session.executor
        flight.started = MonotonicClock.nanoseconds()
        flight.thread = NativeThread.start { flight.run() }
        if flight.thread == nil {
            flight.signal {
                $0.outcome = .failure(.spawnFailed(executable: launcher.executable, reason: "cannot start a thread for the launch")); $0.ended = $0.started
            }
        }
        return flight
    }

    /// Waits for every launch, in order: the measured ones' records, or the first failure in launch order.
    private func records(of flights: [Flight], progress: @escaping @Sendable (LaunchSession.Event) -> Void) throws(RunnerError) -> [RunRecord] {
        var records: [RunRecord] = []
        var failure: RunnerError?
        for (number, flight) in flights.enumerated() {
            if let thread = flight.thread { pthread_join(thread, nil) }
            progress(.finished(number: number + 1, seconds: LaunchClock.seconds(flight.ended &- flight.started)))
            switch flight.outcome {
            case .success(let record)?: if flight.index > 0 { records.append(record) }
            case .failure(let error)?: if failure == nil { failure = error }
            case nil: if failure == nil { failure = .incomplete(lines: 0) }
            }
        }
        if let failure { throw failure }
        return records
    }
}
