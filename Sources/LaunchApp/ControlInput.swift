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
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { ended = true; continue }
            // Past the line limit without a line feed: keep the start, drop the rest of the line.
            if buffer.count < Self.maximumLineBytes + 1 || chunk[..<n].contains(UInt8(ascii: "\n")) {
                buffer.append(contentsOf: chunk[..<n])
            }
        }
    }
}
