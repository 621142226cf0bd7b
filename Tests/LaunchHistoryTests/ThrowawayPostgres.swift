import Foundation
import LaunchHistory

/// A PostgreSQL 15 server for the tests: initdb into a temporary directory owned by `postgres`
/// (initdb and pg_ctl refuse root), listening only on a Unix socket there; stopped and removed when
/// the test process exits. One server per process; each test makes its own database.
final class ThrowawayPostgres: Sendable {
    static let binaries = "/usr/lib/postgresql/15/bin"

    /// Why the PostgreSQL tests cannot run here, or `nil` when they can.
    static let unavailable: String? = {
        if !FileManager.default.isExecutableFile(atPath: "\(binaries)/initdb") {
            return "PostgreSQL 15 not installed (\(binaries)/initdb missing): `make setup` installs postgresql-15"
        }
        if getuid() == 0, !FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") {
            return "running as root without runuser: initdb refuses root"
        }
        return nil
    }()

    /// The process's server, started on first use.
    static let shared: Result<ThrowawayPostgres, TestFailure> = Result { () throws(TestFailure) in try ThrowawayPostgres() }

    let directory: String
    private let counter = Counter()

    init() throws(TestFailure) {
        var template = Array("/tmp/launchprof-pg.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        directory = String(cString: made)
        if getuid() == 0 {
            guard let user = getpwnam("postgres") else { throw TestFailure("no postgres user to run initdb as") }
            chown(directory, user.pointee.pw_uid, user.pointee.pw_gid)
        }
        let log = "\(directory)/server.log"
        try run(["\(Self.binaries)/initdb", "-D", "\(directory)/data", "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"])
        try run([
            "\(Self.binaries)/pg_ctl", "-D", "\(directory)/data", "-l", log, "-w", "-t", "60",
            "-o", "-k \(directory) -c listen_addresses='' -c fsync=off -c max_connections=40", "start"
        ])
        let path = directory
        stopAtExit.withLock { $0.append(path) }
        atexit {
            for path in stopAtExit.withLock({ $0 }) {
                ThrowawayPostgres.runQuietly(["\(ThrowawayPostgres.binaries)/pg_ctl", "-D", "\(path)/data", "-m", "immediate", "-w", "stop"])
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    /// A URL for a new, empty database of its own.
    func newDatabase() throws -> String {
        let name = "t\(counter.next())"
        let admin = try PostgresDatabase(url: url("postgres"))
        try admin.execute("CREATE DATABASE \(name)", [])
        return url(name)
    }

    func url(_ database: String) -> String { "postgresql:///\(database)?host=\(directory)&user=postgres" }

    private func run(_ arguments: [String]) throws(TestFailure) {
        let status = Self.runQuietly(arguments)
        guard status == 0 else {
            let log = (try? String(contentsOfFile: "\(directory)/server.log", encoding: .utf8)) ?? ""
            throw TestFailure("\(arguments.first ?? "") exited \(status)\n\(log.suffix(2000))")
        }
    }

    /// Runs `arguments` (as `postgres` when root) with its output discarded and descriptors 3 and up
    /// closed, and returns its exit status; posix_spawn and waitpid (Foundation's Process can miss the child's exit here).
    @discardableResult
    static func runQuietly(_ arguments: [String]) -> Int32 {
        let argv = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + arguments : arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Every other descriptor closed in the child: pg_ctl leaves the server running in the
        // background, and a pipe's write end it inherited from this test process (another test's
        // child output, opened at the same moment without close-on-exec) would keep that pipe open
        // until the process exits, so its reader never saw its end.
        // (glibc 2.34's posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does not declare.)
        if let closeFrom = addCloseFrom { _ = closeFrom(&actions, 3) }
        var pointers: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, argv[0], &actions, nil, &pointers, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}

private let stopAtExit = Mutex<[String]>([])

/// `posix_spawn_file_actions_addclosefrom_np`, looked up in the C library.
private let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}()

/// A minimal lock around a value (the test target links no Synchronization).
final class Mutex<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

final class Counter: Sendable {
    private let value = Mutex(0)
    func next() -> Int {
        value.withLock {
            $0 += 1; return $0
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
