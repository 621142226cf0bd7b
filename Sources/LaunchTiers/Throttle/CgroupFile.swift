#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// Reading and writing cgroup control files, which take one value per `write`.
package enum CgroupFile {
    /// Writes `value` to the control file `path` in one `write`; the kernel refuses a bad value there.
    static func write(_ value: String, to path: String) throws(TierError) {
        guard let error = writeReturningError(value, to: path) else { return }
        throw .throttle(.cgroup(path: path, action: "write '\(value)'", reason: describe(error)))
    }

    /// Writes `value` unless the file does not exist (an optional knob: `memory.memsw.limit_in_bytes`
    /// exists only with swap accounting); `false` when it does not.
    @discardableResult
    static func writeIfPresent(_ value: String, to path: String) throws(TierError) -> Bool {
        guard let error = writeReturningError(value, to: path) else { return true }
        if error == ENOENT { return false }
        throw .throttle(.cgroup(path: path, action: "write '\(value)'", reason: describe(error)))
    }

    /// The errno of a failed write, or `nil`.
    package static func writeReturningError(_ value: String, to path: String) -> Int32? {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        let bytes = Array(value.utf8)
        while true {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n == bytes.count { return nil }
            if n < 0 && errno == EINTR { continue }
            return n < 0 ? errno : EIO
        }
    }

    /// The text of a control file (at most 1 MiB), or `nil` when it cannot be read.
    package static func read(_ path: String) -> String? {
        try? FileIO.readText(path, limit: 1 << 20)
    }

    /// The value of `key` in a flat-keyed file of `KEY VALUE` lines (`memory.events`, `memory.oom_control`).
    static func counter(_ key: String, in path: String) -> Int? {
        guard let text = read(path) else { return nil }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, fields[0] == key { return Int(fields[1]) }
        }
        return nil
    }

    /// Creates the directory `path` (a new cgroup).
    static func makeDirectory(_ path: String) throws(TierError) {
        guard mkdir(path, 0o755) != 0 else { return }
        throw .throttle(.cgroup(path: path, action: "create the cgroup", reason: describe(errno)))
    }

    static func describe(_ error: Int32) -> String { String(cString: strerror(error)) }
}
