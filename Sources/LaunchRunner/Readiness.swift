#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// When a program that does not exit at the end of its launch (a server, a GUI) is ready: the end of
/// its launch and its `interactive` mark (`--ready-when-output`, `--ready-when-port`, `--ready-when-file`).
public enum Readiness: Sendable {
    /// The first line on its stdout or stderr that matches.
    case output(ExtendedRegex)
    /// A TCP connection to 127.0.0.1 on this port is accepted.
    case port(UInt16)
    /// This file exists.
    case file(String)

    /// How the result names it: `output matches 'Listening'`, `port 8080 accepts`, `file /tmp/ready exists`.
    public var description: String {
        switch self {
        case .output(let regex): "output matches \(PlainText.quoted(regex.pattern))"
        case .port(let port): "port \(port) accepts"
        case .file(let path): "file \(PlainText.clipped(path, limit: 400)) exists"
        }
    }

    /// How often the port and the file are probed while the program starts (1 ms: the ready time is
    /// at most this late).
    static let probeIntervalNanoseconds: UInt64 = 1_000_000

    /// Whether a probed condition holds now (`false` for `output`, which is seen in the lines read).
    func probe() -> Bool {
        switch self {
        case .output: false
        case .port(let port): Self.accepts(port: port)
        case .file(let path): access(path, F_OK) == 0
        }
    }

    /// Whether a TCP connection to 127.0.0.1:`port` is accepted within a few milliseconds (closed at
    /// once). Non-blocking: a listener whose backlog is full cannot hold the launcher.
    static func accepts(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let status = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if status == 0 { return true }
        guard errno == EINPROGRESS else { return false }
        var pending = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&pending, 1, 5) == 1 else { return false }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0
    }
}

extension Readiness: Equatable {
    /// Two conditions are the same when they read the same (a pattern compared by its text).
    public static func == (a: Readiness, b: Readiness) -> Bool { a.description == b.description }
}
