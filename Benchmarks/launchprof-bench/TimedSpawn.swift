import Foundation
import LaunchCore

/// Runs `arguments` (an absolute executable first) with stdout and stderr to /dev/null, timed from
/// just before `posix_spawn` to `wait4`'s return: wall seconds, peak RSS bytes, exit status (128 +
/// the signal when one ended it) and CPU seconds (user and system, with the children it waited for);
/// `nil` when it could not be spawned. Foundation's `Process` is not
/// used for timing: its `waitUntilExit` polls a run loop and adds up to tens of milliseconds.
func timedSpawn(_ arguments: [String]) -> (wall: Double, peak: Int, status: Int32, cpu: Double)? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var pid: pid_t = 0
    let start = MonotonicClock.nanoseconds()
    guard posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else { return nil }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let wall = Double(MonotonicClock.nanoseconds() - start) / 1e9
    let exited = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return (wall, Int(usage.ru_maxrss) * 1024, exited, seconds(usage.ru_utime) + seconds(usage.ru_stime))
}
