/// One protocol line built in a fixed buffer: at most ``maximumLength`` bytes with its newline, under
/// `PIPE_BUF`, so one `write` of it is never interleaved with another thread's.
struct EventLine: ~Copyable {
    /// The longest line, newline included.
    static let maximumLength = 4095
    /// The longest escaped name: the longest head (`begin <20 digits> <7 digits> decode `) is 42 bytes.
    static let maximumNameLength = 4000
    /// What an empty name is sent as (the protocol refuses empty names).
    static let unnamed = "(unnamed)"

    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    /// Calls `body` with an empty line on the stack.
    static func withLine<R>(_ body: (inout EventLine) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { buffer in
            var line = EventLine(buffer: buffer)
            return body(&line)
        }
    }

    private init(buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// The bytes so far.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[..<count]) }

    /// Text that needs no escaping (a verb, a kind).
    mutating func append(_ text: String) {
        for byte in text.utf8 { appendByte(byte) }
    }

    mutating func append(_ value: UInt64) {
        var digits = 1
        var scan = value
        while scan >= 10 {
            scan /= 10
            digits += 1
        }
        var rest = value
        var i = count + digits
        repeat {
            i -= 1
            buffer[i] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
        count += digits
    }

    mutating func append(_ value: Int) {
        if value < 0 { appendByte(UInt8(ascii: "-")) }
        append(UInt64(value.magnitude))
    }

    /// `name` escaped as the protocol says (`\\`, `\n`, `\r`, `\t`) and cut to ``maximumNameLength``
    /// bytes, never inside an escape or a UTF-8 sequence.
    mutating func appendName(_ name: String) {
        var name = name.isEmpty ? Self.unnamed : name
        name.withUTF8 { source in
            let limit = count + Self.maximumNameLength
            var i = 0
            while i < source.count {
                let byte = source[i]
                let escaped: UInt8? =
                    switch byte {
                    case UInt8(ascii: "\\"): UInt8(ascii: "\\")
                    case UInt8(ascii: "\n"): UInt8(ascii: "n")
                    case UInt8(ascii: "\r"): UInt8(ascii: "r")
                    case UInt8(ascii: "\t"): UInt8(ascii: "t")
                    default: nil
                    }
                if let escaped {
                    guard limit - count >= 2 else { return }
                    appendByte(UInt8(ascii: "\\"))
                    appendByte(escaped)
                    i += 1
                    continue
                }
                // Swift strings are valid UTF-8: the lead byte gives the sequence's length.
                let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                guard limit - count >= length, i + length <= source.count else { return }
                for j in i..<(i + length) { appendByte(source[j]) }
                i += length
            }
        }
    }

    mutating func appendByte(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }
}
