#if canImport(Glibc)
import Glibc
#endif

/// How one run's cgroup is emptied and removed, in a form a signal handler can use as well as
/// ``RunThrottle/finish()``: the paths are laid out once as consecutive NUL-terminated C strings,
/// and ``remove(layout:budgetNanoseconds:killed:)`` makes only system calls on them (`open`,
/// `read`, `write`, `close`, `kill`, `tgkill`, `rmdir`, `nanosleep`, `clock_gettime`), with no
/// allocation, no lock and no shared buffer (files are read through 64 bytes on the stack), so two
/// handlers running at once cannot disturb each other.
///
/// Removing is: lift the CPU limit (so that killed tasks are not held back by the quota on their
/// way out); in v2, write `cgroup.kill` (Linux 5.14: every process inside killed at once, even one
/// forking); move any thread of launchprof itself that is inside back to the parent cgroup (a
/// signal may arrive while the launching thread is in the run's cgroup for the spawn); kill every
/// other process inside with SIGKILL; `rmdir`, retried while the kernel still reports the cgroup
/// busy (killed processes take a moment to exit; zombies do not count), up to a time budget.
package struct CgroupRemoval: Sendable {
    /// `directory`, `cgroup.procs`, the threads file, the parent's file to move own threads to (or
    /// empty), the CPU limit file (or empty), the value that lifts the limit, and `cgroup.kill` (v2;
    /// empty in v1, which has none).
    let layout: [CChar]

    /// - Parameters:
    ///   - threadsFile: `tasks` (v1) or `cgroup.threads` (v2).
    ///   - parentThreads: where a thread of this process found inside goes (`<parent>/tasks`); `nil`
    ///     in v2, where launchprof never puts a thread of its own.
    ///   - lift: the CPU limit file and the value that removes the limit (`cpu.cfs_quota_us`, `-1`).
    package init(directory: String, threadsFile: String, parentThreads: String?, lift: (file: String, value: String)?) {
        let fields = [
            directory, directory + "/cgroup.procs", directory + "/" + threadsFile, parentThreads ?? "",
            lift.map { directory + "/" + $0.file } ?? "", lift?.value ?? "",
            threadsFile == "cgroup.threads" ? directory + "/cgroup.kill" : ""
        ]
        layout = fields.flatMap { Array($0.utf8CString) }
    }

    /// The cgroup's directory.
    var directory: String { layout.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } }

    /// Removes the cgroup (as launchprof's end does, without the reaping), then reaps the processes it
    /// killed that are this process's children (within the same budget again). Returns 0 or the
    /// `errno` of the last `rmdir`.
    package func remove(budgetNanoseconds: UInt64 = 1_000_000_000) -> Int32 {
        var killed: Set<pid_t> = []
        let result = layout.withUnsafeBufferPointer { buffer in
            Self.remove(layout: buffer.baseAddress!, budgetNanoseconds: budgetNanoseconds) { killed.insert($0) }
        }
        let giveUp = Self.now() &+ budgetNanoseconds
        var status: Int32 = 0
        while !killed.isEmpty, Self.now() < giveUp {
            // Reaped, or not this process's child (ECHILD): done with it; still running: wait a little.
            killed = killed.filter { pid in
                let result = waitpid(pid, &status, WNOHANG)
                return result == 0 || (result < 0 && errno == EINTR)
            }
            if !killed.isEmpty { usleep(1000) }
        }
        return result
    }

    /// How long removing one cgroup may take when launchprof is ending (500 ms).
    static let interruptedBudgetNanoseconds: UInt64 = 500_000_000

    /// Removes the cgroup as ``remove(budgetNanoseconds:)`` does, without reaping what it killed:
    /// for launchprof's end, where the launches' own threads may still be waiting for their programs.
    func removeWithoutReaping(budgetNanoseconds: UInt64) -> Int32 {
        layout.withUnsafeBufferPointer { Self.remove(layout: $0.baseAddress!, budgetNanoseconds: budgetNanoseconds, killed: nil) }
    }

    /// The field `index` of a layout (0-based).
    private static func field(_ layout: UnsafePointer<CChar>, _ index: Int) -> UnsafePointer<CChar> {
        var pointer = layout
        for _ in 0..<index {
            while pointer.pointee != 0 { pointer += 1 }
            pointer += 1
        }
        return pointer
    }

    /// Async-signal-safe: empties and removes the cgroup of `layout` (see the type's description),
    /// retrying for up to `budgetNanoseconds`; calls `killed` with each process killed (pass `nil` in
    /// a signal handler). Returns 0 (removed, or already gone) or the `errno` of the last `rmdir`.
    static func remove(layout: UnsafePointer<CChar>, budgetNanoseconds: UInt64, killed: ((pid_t) -> Void)?) -> Int32 {
        let directory = field(layout, 0), procs = field(layout, 1), threads = field(layout, 2)
        let parentThreads = field(layout, 3), liftFile = field(layout, 4), liftValue = field(layout, 5)
        let killFile = field(layout, 6)
        if liftFile.pointee != 0 { _ = writeText(liftValue, to: liftFile) }
        // Before listing them below, so that what is killed at once is still reaped by `killed`.
        if killFile.pointee != 0 {
            forEachNumber(in: procs) { pid in if pid > 1, pid != getpid() { killed?(pid) } }
            var one: (CChar, CChar) = (49, 0)  // "1"
            withUnsafePointer(to: &one) { $0.withMemoryRebound(to: CChar.self, capacity: 2) { _ = writeText($0, to: killFile) } }
        }
        let deadline = now() &+ budgetNanoseconds
        while true {
            if parentThreads.pointee != 0 {
                forEachNumber(in: threads) { tid in
                    if LinuxThreadCalls.isOwnThread(tid) { _ = writeNumber(tid, to: parentThreads) }
                }
            }
            let me = getpid()
            forEachNumber(in: procs) { pid in
                guard pid > 1, pid != me else { return }
                if kill(pid, SIGKILL) == 0 { killed?(pid) }
            }
            if rmdir(directory) == 0 { return 0 }
            let error = errno
            if error == ENOENT { return 0 }
            if error != EBUSY || now() >= deadline { return error }
            var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            nanosleep(&pause, nil)
        }
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Calls `body` with each decimal number in the file (one per line), read 64 bytes at a time
    /// into a buffer on the stack.
    private static func forEachNumber(in path: UnsafePointer<CChar>, _ body: (pid_t) -> Void) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var chunk: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        var value: Int64 = 0
        var inNumber = false
        withUnsafeMutableBytes(of: &chunk) { buffer in
            while true {
                let n = read(fd, buffer.baseAddress, buffer.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                for byte in buffer.prefix(n) {
                    if byte >= 48 && byte <= 57 {
                        if value <= Int64(Int32.max) { value = value * 10 + Int64(byte - 48) }
                        inNumber = true
                    } else if inNumber {
                        if value <= Int64(Int32.max) { body(pid_t(value)) }
                        value = 0
                        inNumber = false
                    }
                }
            }
        }
        if inNumber, value <= Int64(Int32.max) { body(pid_t(value)) }
    }

    /// Writes a C string to a file in one `write`; `true` on success.
    private static func writeText(_ text: UnsafePointer<CChar>, to path: UnsafePointer<CChar>) -> Bool {
        var length = 0
        while text[length] != 0 { length += 1 }
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, text, length) == length
    }

    /// Writes a positive number in decimal to a file in one `write`, from a buffer on the stack.
    private static func writeNumber(_ number: pid_t, to path: UnsafePointer<CChar>) -> Bool {
        var digits: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &digits) { raw in
            let buffer = raw.bindMemory(to: CChar.self)
            var value = max(number, 0), end = buffer.count - 1
            buffer[end] = 0
            repeat {
                end -= 1
                buffer[end] = CChar(48 + value % 10)
                value /= 10
            } while value > 0 && end > 0
            return writeText(buffer.baseAddress! + end, to: path)
        }
    }
}
