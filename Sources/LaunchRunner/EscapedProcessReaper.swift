#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// Kills what a launched program started and then hid from its process group with `setsid()` or
/// `setpgid()`, which the group kill at the end of a run cannot reach.
///
/// launchprof is the child subreaper of everything it launches (``ProcessLauncher/becomeSubreaper``), so
/// once the program has exited, every process it left behind is re-parented to launchprof. Each run
/// gives the program an environment variable with a token of its own (``tokenVariable``), which
/// everything it starts inherits; the children of launchprof outside its process group that carry
/// the token (in `/proc/<pid>/environ`) are the run's escaped descendants — never a process some
/// other part of launchprof started. Each is killed with its group and reaped, repeatedly, since
/// killing one re-parents its children here in turn. Bounded to ``budgetNanoseconds``. A
/// descendant that both leaves the group and clears its environment is not found here (the
/// launch's cgroup, ``RunContainment``, ends it where there is one).
///
/// A dying or dead process has an empty `/proc/<pid>/environ`, so the token cannot name the other
/// members of an escaped one's group, which die with it and are re-parented here: the children in a
/// group this sweep killed are waited for too (else they would stay zombies). The leaders of
/// launches in flight are never touched (``ChildProcessGuard/isLeader(_:)``).
enum EscapedProcessReaper {
    /// The longest a sweep may take (1 s).
    static let budgetNanoseconds: UInt64 = 1_000_000_000
    /// The environment variable carrying a run's token.
    static let tokenVariable = "LAUNCHPROF_RUN"

    /// A token for one run: this process's id and 64 random bits, always 16 hex digits: the
    /// environment's size is then the same every run, and so is a program's instruction count
    /// (one digit fewer, one run in 16, changed a small C program's count by 14 instructions).
    static func newToken() -> String {
        let hex = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return "\(getpid())-\(String(repeating: "0", count: 16 - hex.count))\(hex)"
    }

    /// Kills and reaps every escaped descendant of the run with `token`; returns how many were killed.
    @discardableResult
    static func sweep(token: String) -> Int {
        guard ProcessLauncher.becomeSubreaper, hasChildren() else { return 0 }
        let me = getpid()
        let myGroup = getpgrp()
        let entry = Array("\(tokenVariable)=\(token)".utf8)
        let giveUp = MonotonicClock.nanoseconds() &+ budgetNanoseconds
        var killed = 0
        // The groups killed so far: their members re-parented here are dying, whatever their
        // environment still shows, and are waited for.
        var killedGroups: Set<pid_t> = []
        while MonotonicClock.nanoseconds() < giveUp {
            let outside = children(of: me).filter { $0.group != myGroup && !ChildProcessGuard.isLeader($0.pid) }
            let escaped = outside.filter { killedGroups.contains($0.group) || (!$0.isZombie && environment($0.pid, contains: entry)) }
            if escaped.isEmpty { break }
            for child in escaped {
                if !child.isZombie {
                    if child.group > 0 { kill(-child.group, SIGKILL) }
                    kill(child.pid, SIGKILL)
                    killedGroups.insert(child.group)
                    killed += 1
                }
                var status: Int32 = 0
                while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
            }
        }
        return killed
    }

    /// Whether this process has any child at all (running or a zombie), without reaping one:
    /// the common case, none, costs one system call instead of a scan of `/proc`.
    static func hasChildren() -> Bool {
        var info = siginfo_t()
        while waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) < 0 {
            if errno != EINTR { return false }  // ECHILD
        }
        return true
    }

    struct Child: Equatable {
        var pid: pid_t
        var group: pid_t
        /// Dead and not yet reaped (state `Z`).
        var isZombie = false
    }

    /// The processes whose parent is `parent`, read from `/proc/<pid>/stat`.
    static func children(of parent: pid_t) -> [Child] {
        FileIO.entries(of: "/proc").compactMap { name in
            guard let pid = pid_t(name), pid > 0, let text = readStat(pid),
                let stat = parseStat(text), stat.parent == parent
            else { return nil }
            return Child(pid: pid, group: stat.group, isZombie: stat.state == "Z")
        }
    }

    /// Whether `entry` (`NAME=value`) is one of the NUL-separated entries of `/proc/<pid>/environ`
    /// (its first 1 MiB).
    static func environment(_ pid: pid_t, contains entry: [UInt8]) -> Bool {
        let fd = open("/proc/\(pid)/environ", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            count += n
        }
        return bytes[..<count].split(separator: 0, omittingEmptySubsequences: true).contains { $0.elementsEqual(entry) }
    }

    /// `/proc/<pid>/stat` (a few hundred bytes; at most 4 KiB is read), or `nil` once the process is gone.
    static func readStat(_ pid: pid_t) -> String? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var n = 0
        repeat { n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } } while n < 0 && errno == EINTR
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n], as: UTF8.self)
    }

    /// The state, parent and group fields of a `/proc/<pid>/stat` line: `pid (comm) state ppid pgrp …`,
    /// where `comm` may contain spaces and parentheses, so the fields are read after the last `)`.
    static func parseStat(_ text: String) -> (parent: pid_t, group: pid_t, state: Substring)? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count >= 3, let parent = pid_t(fields[1]), let group = pid_t(fields[2]) else { return nil }
        return (parent, group, fields[0])
    }
}
