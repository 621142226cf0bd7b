/// Reports this program's launch phases to `launchprof exec` over the line protocol
/// (`docs/protocol.md`): a no-op unless the environment variable `LAUNCHPROF_FD` names a descriptor
/// open for writing.
///
/// ```swift
/// import LaunchprofClient
///
/// Launchprof.start()                       // first thing in main: its reading is the `main` line
/// let config = try Launchprof.phase("loading config", kind: .io) { try loadConfig() }
/// Launchprof.mark("interactive")
/// Launchprof.count(19, "keys laid out")
/// Launchprof.done()                        // the report is complete: once, at the end
/// ```
///
/// - Each event is one `write` of less than 4096 bytes (`PIPE_BUF`), so lines from several threads
///   never interleave. Threads are numbered on their first event: 0 is the thread that called
///   ``start()`` (or first used the client), the others 1, 2, ….
/// - A phase begins and ends on the same thread: not across an `await`, where a task may resume on
///   another thread.
/// - Names are escaped as the protocol says and cut, at a character boundary, to 4000 bytes once
///   escaped; an empty name is sent as `(unnamed)`.
/// - Nothing follows ``done()``. The program is never disturbed: writes are retried on `EINTR`,
///   `errno` is kept, a broken pipe (launchprof went away) raises no `SIGPIPE` and turns the client
///   off. The client takes the descriptor (close-on-exec, `LAUNCHPROF_FD` removed from the
///   environment), so programs this one starts do not report into the same pipe; after `fork` the
///   child reports nothing.
public enum Launchprof {
    /// Starts the client: takes the `main` reading, makes this thread number 0 and takes the
    /// descriptor. Call it first thing in `main`; otherwise the first event does it. Nothing is
    /// written until the first event, so a program that reports nothing is timed as a whole.
    public static func start() {
        _ = Reporter.shared
    }

    /// Whether events are sent: `LAUNCHPROF_FD` named a usable descriptor and ``done()`` was not called.
    public static var isActive: Bool { Reporter.shared.isActive }

    /// Runs `body` as the phase `name` on this thread and returns its value; the phase ends also
    /// when `body` throws.
    public static func phase<Result, Failure: Error>(
        _ name: String, kind: Kind? = nil, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        begin(name, kind: kind)
        defer { end(name) }
        return try body()
    }

    /// The phase `name` begins on this thread, nested in the phase open there.
    public static func begin(_ name: String, kind: Kind? = nil) {
        Reporter.shared.begin(name, kind: kind)
    }

    /// The innermost phase open on this thread ends; `name` must be its name.
    public static func end(_ name: String) {
        Reporter.shared.end(name)
    }

    /// An instant event, such as `first frame` or `interactive`.
    public static func mark(_ name: String) {
        Reporter.shared.mark(name)
    }

    /// Adds `value` to the counter `name` (`keys laid out`).
    public static func count(_ value: Int, _ name: String) {
        Reporter.shared.count(value, name)
    }

    /// The report is complete: every phase must be closed. Waits for events other threads are
    /// writing; later events are dropped.
    public static func done() {
        Reporter.shared.done()
    }
}
