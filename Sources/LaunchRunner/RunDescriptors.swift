#if canImport(Glibc)
import Glibc
#endif

/// One run's pipes and control socket, both ends (`-1`: not used). The child's ends are passed to
/// the program (or its spawner) and closed here after the spawn; the launcher keeps its own ends
/// for the run (``Pipes``). Every descriptor is close-on-exec: a child gets only the copies made for it.
struct RunDescriptors {
    /// The protocol (`LAUNCHPROF_FD`), stderr and stdout (only when the program's output is read).
    var protocolPipe: [Int32] = [-1, -1]
    var errorPipe: [Int32] = [-1, -1]
    var outputPipe: [Int32] = [-1, -1]
    /// The spawner's report (``SpawnerReport``); its write end is numbered 10 or above, so that no
    /// `dup2` onto 0–3 can land on it.
    var reportPipe: [Int32] = [-1, -1]
    /// The control channel (standard input): a socket, so that writing to a program that has gone
    /// is an error (`MSG_NOSIGNAL`), not a SIGPIPE.
    var control: [Int32] = [-1, -1]

    /// Opens what a run needs; on failure nothing stays open and `errno` says why.
    init(control withControl: Bool, output: Bool) throws(RunDescriptorsError) {
        if withControl {
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &control) == 0 else {
                throw RunDescriptorsError(errno: errno)
            }
        }
        do throws(RunDescriptorsError) {
            try Self.makePipe(&protocolPipe)
            try Self.makePipe(&errorPipe)
            if output { try Self.makePipe(&outputPipe) }
        } catch {
            closeAll()
            throw error
        }
    }

    /// Adds the spawner's report pipe (a run through `launchprof-spawn`).
    mutating func addReportPipe() throws(RunDescriptorsError) {
        do throws(RunDescriptorsError) {
            try Self.makePipe(&reportPipe)
            let high = fcntl(reportPipe[1], F_DUPFD_CLOEXEC, 10)
            let saved = errno
            close(reportPipe[1])
            reportPipe[1] = high
            guard high >= 0 else { throw RunDescriptorsError(errno: saved) }
        } catch {
            for fd in reportPipe where fd >= 0 { close(fd) }
            reportPipe = [-1, -1]
            throw error
        }
    }

    /// The launcher's ends, for reading the run.
    var launcherEnds: Pipes {
        Pipes(protocolFD: protocolPipe[0], errorFD: errorPipe[0], outputFD: outputPipe[0], controlFD: control[1], reportFD: reportPipe[0])
    }

    /// After the spawn: the child's ends, which only the child (or its spawner) keeps.
    mutating func closeChildEnds() {
        for fd in [protocolPipe[1], errorPipe[1], outputPipe[1], reportPipe[1], control[0]] where fd >= 0 { close(fd) }
        protocolPipe[1] = -1
        errorPipe[1] = -1
        outputPipe[1] = -1
        reportPipe[1] = -1
        control[0] = -1
    }

    /// The launcher's reading ends, when the run will not be read (a failed spawn); the control
    /// socket's launcher end is closed by ``closeControl()``.
    mutating func closeLauncherEnds() {
        for fd in [protocolPipe[0], errorPipe[0], outputPipe[0], reportPipe[0]] where fd >= 0 { close(fd) }
        protocolPipe[0] = -1
        errorPipe[0] = -1
        outputPipe[0] = -1
        reportPipe[0] = -1
    }

    /// The launcher's end of the control socket (after the run, read or not).
    mutating func closeControl() {
        if control[1] >= 0 { close(control[1]) }
        control[1] = -1
    }

    /// Everything still open.
    mutating func closeAll() {
        closeChildEnds()
        closeLauncherEnds()
        closeControl()
    }

    /// A pipe whose ends close on exec (the child gets only the dup2'd copies).
    private static func makePipe(_ fds: inout [Int32]) throws(RunDescriptorsError) {
        guard pipe(&fds) == 0 else { throw RunDescriptorsError(errno: errno) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }
}

/// Why a run's descriptors could not be made: the `errno` of the failed call.
struct RunDescriptorsError: Error {
    var errno: Int32

    var reason: String { String(cString: strerror(errno)) }
}

/// The launcher's ends of a run's descriptors (`-1`: not used).
struct Pipes {
    var protocolFD: Int32
    var errorFD: Int32
    var outputFD: Int32
    var controlFD: Int32
    /// The spawner's report (``SpawnerReport``).
    var reportFD: Int32
}
