import Testing
@testable import LaunchCore
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ClockTests {
    @Test func monotonicReadingsNeverGoBackwards() {
        var previous = MonotonicClock.nanoseconds()
        for _ in 0..<10_000 {
            let now = MonotonicClock.nanoseconds()
            #expect(now >= previous)
            previous = now
        }
    }

    @Test func elapsedTimeCoversASleep() {
        let clock = LaunchClock.startNow()
        usleep(20_000)
        let elapsed = clock.elapsedSeconds()
        #expect(elapsed >= 0.020)
        #expect(elapsed < 5)
    }

    @Test func readingsBeforeTheOriginAreNegative() {
        let clock = LaunchClock(originNanoseconds: 5_000_000_000)
        #expect(clock.seconds(atReading: 4_000_000_000) == -1.0)
        #expect(clock.seconds(atReading: 6_500_000_000) == 1.5)
        #expect(LaunchClock.seconds(250_000_000) == 0.25)
    }

    @Test func startAtMainRemembersTheClock() {
        let clock = LaunchClock.startAtMain()
        #expect(LaunchClock.main == clock)
    }
}
