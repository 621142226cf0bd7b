#if canImport(Glibc)
import Glibc
#endif

/// Reads the control channel's lines from a descriptor (standard input), blocking, one at a time.
/// A line is at most ``maximumLineBytes``; a longer one is cut there (the rest is dropped).
struct ControlInput {
    /// The longest control line kept (4 KiB: the longest command is a tap with a key name).
    static let maximumLineBytes = 4096

    let fd: Int32
    private var buffer: [UInt8] = []
    private var ended = false

    init(fd: Int32) {
        self.fd = fd
    }

    /// The lines already waiting, without blocking: the events that came while the app was busy.
    mutating func linesAvailableNow() -> [String] {
        while !ended {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let n = poll(&ready, 1, 0)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            guard readChunk() else { break }
        }
        var lines: [String] = []
        while buffer.contains(UInt8(ascii: "\n")), let line = nextLine() { lines.append(line) }
        return lines
    }

    /// Reads what the descriptor has (blocking); `false` at the end of the input.
    private mutating func readChunk() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { ended = true; return false }
            // Past the line limit without a line feed: keep the start, drop the rest of the line.
            if buffer.count < Self.maximumLineBytes + 1 || chunk[..<n].contains(UInt8(ascii: "\n")) {
                buffer.append(contentsOf: chunk[..<n])
            }
            return true
        }
    }

    /// The next line without its line feed (and a trailing carriage return), or `nil` at the end of the input.
    mutating func nextLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<newline].prefix(Self.maximumLineBytes))
                buffer.removeFirst(newline + 1)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            if ended {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return String(decoding: buffer.prefix(Self.maximumLineBytes), as: UTF8.self)
            }
            _ = readChunk()
        }
    }
}
