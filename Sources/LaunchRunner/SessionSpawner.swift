#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchTiers
import LaunchTraces
import Synchronization

/// One `launchprof-spawn --serve` per launchprof process (and spawner path), which starts each run's
/// program itself (``startDirect(_:)``, a run without a device tier), or each run's spawner by
/// forking itself (``start(_:)``), instead of launchprof spawning `launchprof-spawn` again: a run
/// then costs a `clone` of a small static process, not an `execve` and glibc's static start-up
/// (`cpuid` probing, which traps to the hypervisor on a virtual machine) per run.
///
/// A direct start makes the program launchprof's own child (`CLONE_PARENT`), the leader of a process
/// group of its own, born in the run's cgroup; the server answers with its pid and the clocks read
/// just before the clone (the run's origin), and launchprof waits for it, reads its counters and
/// reaps it itself: one process, one pipe and two hand-overs less per run than a forked spawner.
///
/// The forked spawner is launchprof's own child (`CLONE_PARENT`), leads a process group of its own
/// (it and launchprof both call `setpgid`, so the group exists once ``start(_:)`` returns), holds the run's descriptors as a spawned one would, and does what a
/// spawned `launchprof-spawn REPORT_FD …` does (Sources/launchprof-spawn/spawn.c): so the launcher's
/// pidfd, `wait4`, group kill, ``ExitCleanup`` registration and report are the same for both.
///
/// The server lives in launchprof's process group, ignores the terminal's signals, and ends when
/// its socket reaches its end (launchprof ended, however). It is launchprof's child for the whole
/// session, so ``EscapedProcessReaper``'s "no child left" shortcut would no longer hold: the launcher
/// uses it only for runs with a cgroup of their own (``RunContainment``), whose end does not need
/// the sweep. When the server cannot be started, or has gone, ``start(_:)`` returns `nil` and the
/// run is spawned through `launchprof-spawn` as before.
final class SessionSpawner: @unchecked Sendable {
    /// What one run's spawner is given.
    struct Request {
        /// Standard input, output, error and the protocol descriptor (`nil` for input or output:
        /// `/dev/null`).
        var input: Int32?
        var output: Int32?
        var error: Int32
        var protocolDescriptor: Int32
        /// `[--join DIRECTORY] [--enter FILE]... [--leave FILE]... -- EXECUTABLE ARGV0 ARGS...` for a
        /// forked spawner; `[--join DIRECTORY] -- EXECUTABLE ARGV0 ARGS...` for a direct start.
        var options: [String]
        /// `NAME=value` entries: the program's environment.
        var environment: [String]
    }

    /// The outcome of a request: the run's spawner's pid, or the errno of a failed fork.
    enum Started: Equatable {
        case spawner(pid_t)
        case failed(Int32)
    }

    /// The outcome of a direct start.
    enum DirectStart: Equatable {
        /// The program runs: launchprof's child, `pid`; the clocks read just before its clone.
        case program(pid: pid_t, clock: SpawnClock)
        /// It could not be executed (errno); `pid`, when set, is a child that has exited: reap it.
        case failed(pid: pid_t?, error: Int32)
        /// No direct start here (no `clone3`): use ``start(_:)``.
        case unsupported
    }

    /// The servers started so far, by spawner path (`nil`: it could not be started).
    private static let servers = Mutex<[String: SessionSpawner?]>([:])

    /// The server for `path`, started at the first call; `nil` when it cannot be started.
    static func shared(_ path: String) -> SessionSpawner? {
        servers.withLock { servers in
            if let known = servers[path] { return known }
            let made = SessionSpawner(path: path)
            servers[path] = .some(made)
            return made
        }
    }

    private static let magic: UInt32 = 0x4c50_5331
    private static let directMagic: UInt32 = 0x4c50_5332
    private let lock = ConditionLock()
    private var socket: Int32
    /// The server's pid (launchprof's child until it ends).
    let pid: pid_t
    private let nullInput: Int32
    private let nullOutput: Int32

    /// A server of its own (``shared(_:)`` gives the session's); `nil` when it cannot be started.
    init?(path: String) {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else { return nil }
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC), output = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard input >= 0, output >= 0, let started = Self.startServer(path, socket: pair[1], input: input, output: output) else {
            for fd in pair + [input, output] where fd >= 0 { close(fd) }
            return nil
        }
        close(pair[1])
        socket = pair[0]
        pid = started
        nullInput = input
        nullOutput = output
    }

    /// Closing the socket ends the server.
    deinit {
        for fd in [socket, nullInput, nullOutput] where fd >= 0 { close(fd) }
    }

    /// Spawns `path --serve FD` with `/dev/null` for input and output and launchprof's stderr.
    private static func startServer(_ path: String, socket: Int32, input: Int32, output: Int32) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        // Dup'd onto itself: close-on-exec is cleared for the server.
        posix_spawn_file_actions_adddup2(&actions, socket, socket)
        // In launchprof's process group (the sweep for escaped processes leaves that group alone).
        var attributes = posix_spawnattr_t()
        SpawnAttributes.prepare(&attributes, newGroup: false)
        defer { posix_spawnattr_destroy(&attributes) }
        var pid: pid_t = 0
        let status = withCStrings([path, "--serve", String(socket)]) { argv in posix_spawn(&pid, path, &actions, &attributes, argv, environ) }
        return status == 0 ? pid : nil
    }

    /// Starts one run's spawner; `nil` when the server has gone (or never answered): spawn it the
    /// old way. The caller closes its copies of the descriptors as after a `posix_spawn`.
    func start(_ request: Request, report: Int32) -> Started? {
        let answer = exchange(
            Self.magic, options: request.options, environment: request.environment, descriptors: descriptors(of: request) + [report], as: Int32.self)
        guard let answer else { return nil }
        guard answer > 0 else { return .failed(-answer) }
        // Its own group, from this side too (the server answers before the child has run): the
        // one of the two calls that comes second finds it done (or, after its exec, fails harmlessly).
        _ = setpgid(answer, answer)
        return .spawner(answer)
    }

    /// Starts one run's program (launchprof's child); `nil` when the server has gone. The caller
    /// closes its copies of the descriptors as after a `posix_spawn`.
    func startDirect(_ request: Request) -> DirectStart? {
        let answer = exchange(
            Self.directMagic, options: request.options, environment: request.environment, descriptors: descriptors(of: request), as: DirectAnswer.self)
        guard let answer else { return nil }
        if answer.error == -1 { return .unsupported }
        guard answer.pid > 0, answer.error == 0 else { return .failed(pid: answer.pid > 0 ? answer.pid : nil, error: answer.error != 0 ? answer.error : EIO) }
        let clock = SpawnClock(monotonicNanoseconds: answer.spawn, realtimeSeconds: Double(answer.wall) / 1e9, endMonotonicNanoseconds: answer.spawn)
        return .program(pid: answer.pid, clock: clock)
    }

    /// The run's standard descriptors and its protocol descriptor, as the server receives them.
    private func descriptors(of request: Request) -> [Int32] {
        [request.input ?? nullInput, request.output ?? nullOutput, request.error, request.protocolDescriptor]
    }

    /// `struct direct_answer` of spawn.c.
    private struct DirectAnswer {
        var pid: Int32 = 0
        var error: Int32 = 0
        var spawn: UInt64 = 0
        var wall: UInt64 = 0
    }

    /// Sends a request and reads its answer (`Answer`'s bytes); `nil` when the server has gone or
    /// is out of step (it is then never used again).
    private func exchange<Answer>(
        _ magic: UInt32, options: [String], environment: [String], descriptors: [Int32], as: Answer.Type
    ) -> Answer? where Answer: BitwiseCopyable {
        let strings = options + environment
        var payload: [UInt8] = []
        payload.reserveCapacity(strings.reduce(0) { $0 + $1.utf8.count + 1 })
        for string in strings {
            payload += string.utf8
            payload.append(0)
        }
        let header = [magic, UInt32(options.count), UInt32(environment.count), UInt32(payload.count)]
        return lock.withLock { () -> Answer? in
            guard socket >= 0 else { return nil }
            guard sendRequest(header, payload, descriptors: descriptors), let answer = receiveAnswer(Answer.self) else {
                close(socket)
                socket = -1
                return nil
            }
            return answer
        }
    }

    /// The header with the descriptors attached (`SCM_RIGHTS`), and the payload, in one `sendmsg`
    /// (the server then reads the whole request at one wake-up).
    private func sendRequest(_ header: [UInt32], _ payload: [UInt8], descriptors: [Int32]) -> Bool {
        // struct cmsghdr { size_t cmsg_len; int cmsg_level; int cmsg_type; } then the descriptors,
        // padded to a multiple of size_t (CMSG_SPACE).
        let headerSize = MemoryLayout<Int>.size + 2 * MemoryLayout<Int32>.size
        let dataSize = descriptors.count * MemoryLayout<Int32>.size
        let align = MemoryLayout<Int>.size
        let space = headerSize + (dataSize + align - 1) / align * align
        var control = [UInt8](repeating: 0, count: space)
        control.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: headerSize + dataSize, toByteOffset: 0, as: Int.self)
            raw.storeBytes(of: SOL_SOCKET, toByteOffset: MemoryLayout<Int>.size, as: Int32.self)
            raw.storeBytes(of: Int32(SCM_RIGHTS), toByteOffset: MemoryLayout<Int>.size + 4, as: Int32.self)
            for (i, fd) in descriptors.enumerated() { raw.storeBytes(of: fd, toByteOffset: headerSize + i * 4, as: Int32.self) }
        }
        // The request's bytes: the header then the payload.
        let bytes = header.withUnsafeBytes { Array($0) } + payload
        var sendable = bytes
        let sent = sendable.withUnsafeMutableBytes { requestBytes in
            control.withUnsafeMutableBytes { controlBytes in
                var part = iovec(iov_base: requestBytes.baseAddress, iov_len: requestBytes.count)
                return withUnsafeMutablePointer(to: &part) { partPointer in
                    var message = msghdr()
                    message.msg_iov = partPointer
                    message.msg_iovlen = 1
                    message.msg_control = controlBytes.baseAddress
                    message.msg_controllen = controlBytes.count
                    var n: Int
                    repeat { n = sendmsg(socket, &message, Int32(MSG_NOSIGNAL)) } while n < 0 && errno == EINTR
                    return n
                }
            }
        }
        guard sent > 0 else { return false }
        // The rest, if the socket took only part of it (the descriptors went with the first byte).
        return sent == bytes.count || sendAll(Array(bytes[sent...]))
    }

    private func sendAll(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(socket, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    /// The server's answer, `Answer`'s bytes; `nil` when the socket ended first.
    private func receiveAnswer<Answer: BitwiseCopyable>(_: Answer.Type) -> Answer? {
        let size = MemoryLayout<Answer>.size
        var bytes = [UInt8](repeating: 0, count: size)
        var got = 0
        while got < size {
            let n = bytes.withUnsafeMutableBytes { recv(socket, $0.baseAddress! + got, size - got, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            got += n
        }
        return bytes.withUnsafeBytes { $0.loadUnaligned(as: Answer.self) }
    }
}
