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
        var thread = pthread_t()
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
    }

    func run(progress: @escaping @Sendable (LaunchSession.Event) -> Void) throws(RunnerError) -> [RunRecord] {
        let total = session.warmup + session.runs
        guard total > 0 else { return [] }
        var flights: [Flight] = []
        var measured = 0
        for number in 1...total {
            let isWarmup = number <= session.warmup
            if let previous = flights.last {
                previous.waitForBackground()
                var pause = timespec(tv_sec: Int(delay), tv_nsec: Int((delay - delay.rounded(.down)) * 1e9))
                var left = timespec()
                while nanosleep(&pause, &left) != 0 && errno == EINTR { pause = left }
            }
            progress(.starting(number: number, total: total, warmup: isWarmup))
            if !session.coldFiles.isEmpty { PageCache.evict(session.coldFiles) }
            var launcher = session.launcher
            launcher.onProgress = { progress(.stage($0)) }
            let started = Flight(index: isWarmup ? 0 : measured + 1)
            if !isWarmup { measured += 1 }
            launcher.onInputAfterLaunchSent = { [started] in started.signal { $0.sentToBackground = true } }
            started.launcher = launcher
            started.executor = session.executor
            started.started = MonotonicClock.nanoseconds()
            let context = Unmanaged.passRetained(started).toOpaque()
            flights.append(started)
            let status = pthread_create(
                &started.thread, nil,
                { raw in
                    let flight = Unmanaged<Flight>.fromOpaque(raw!).takeRetainedValue()
                    let result: Result<RunRecord, RunnerError>
                    if let launcher = flight.launcher {
                        do throws(RunnerError) { result = .success(try flight.executor.launch(launcher, index: flight.index)) } catch {
                            result = .failure(error)
                        }
                    } else {
                        result = .failure(.incomplete(lines: 0))
                    }
                    let ended = MonotonicClock.nanoseconds()
                    flight.signal {
                        $0.outcome = result; $0.ended = ended
                    }
                    return nil
                }, context)
            if status != 0 {
                Unmanaged<Flight>.fromOpaque(context).release()
                started.signal {
                    $0.outcome = .failure(.spawnFailed(executable: launcher.executable, reason: "cannot start a thread for the launch")); $0.ended = $0.started
                }
            }
        }
        var records: [RunRecord] = []
        var failure: RunnerError?
        for (number, flight) in flights.enumerated() {
            pthread_join(flight.thread, nil)
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
