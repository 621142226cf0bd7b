import Testing
@testable import LaunchHistory

/// Waiting again after SQLite said "busy" without waiting: within the timeout from the first busy
/// answer, never past it.
@Suite struct LockWaitTests {
    @Test func waitsUntilTheTimeoutFromTheFirstBusyAnswer() {
        var wait = LockWait(seconds: 1)
        let answers = [5_000_000_000, 5_900_000_000, 6_000_000_000, 7_000_000_000].map { wait.again(now: $0) }
        #expect(answers == [true, true, false, false])
    }

    @Test func noTimeoutMeansNoWait() {
        var wait = LockWait(seconds: 0)
        let answer = wait.again(now: 1)
        #expect(!answer)
    }
}
