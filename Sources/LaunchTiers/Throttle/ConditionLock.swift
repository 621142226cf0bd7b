#if canImport(Glibc)
import Glibc
#endif

/// A mutex and a condition variable timed on the monotonic clock, at stable heap addresses (a
/// `pthread_mutex_t` stored in a property may be moved by Swift; these never are).
package final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the mutex.
    package func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Holding the mutex, waits until `done()` is true or the monotonic clock reaches `reading`
    /// (nanoseconds, ``LaunchCore/MonotonicClock``); returns `done()`.
    package func wait(until reading: UInt64, for done: () -> Bool) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        var deadline = timespec(tv_sec: Int(reading / 1_000_000_000), tv_nsec: Int(reading % 1_000_000_000))
        while !done() {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            if UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec) >= reading { break }
            _ = pthread_cond_timedwait(condition, mutex, &deadline)
        }
        return done()
    }

    /// Wakes every waiter (call after changing what they wait for, holding or not holding the mutex).
    package func broadcast() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}
