import CCallgrind

/// The Callgrind client requests behind `--metric instructions`.
///
/// Under Valgrind's Callgrind, the app dumps the instruction count at the top of `main` and at
/// every phase boundary; each dump holds the instructions since the previous one, labelled
/// `launchprof main`, `launchprof begin <thread> <index>` or `launchprof end <thread> <index>`
/// (`index`: the phase's position among its thread's phases, in the order they began). The
/// launcher adds the dumps up to get each phase's count (docs/protocol.md). Outside Valgrind every
/// request is a few instructions that do nothing.
public enum CallgrindBoundaries {
    /// Whether this build can issue the requests (it was compiled with `valgrind/callgrind.h`).
    public static var isCompiled: Bool { lp_callgrind_compiled() != 0 }

    /// Whether the process runs under Valgrind.
    public static var isRunningOnValgrind: Bool { lp_running_on_valgrind() != 0 }

    /// The dump at the top of `main`: everything before it is the `process start` phase's count.
    public static func main() {
        lp_callgrind_boundary("main", 0, -1)
    }

    @usableFromInline
    static func begin(thread: Int, index: Int) {
        lp_callgrind_boundary("begin", thread, index)
    }

    @usableFromInline
    static func end(thread: Int, index: Int) {
        lp_callgrind_boundary("end", thread, index)
    }
}
