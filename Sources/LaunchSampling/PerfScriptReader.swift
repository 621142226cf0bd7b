#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// A streaming reader of `perf script -F pid,tid,time,ip,sym,dso --ns --no-demangle` output: each
/// sample is a header line (`  9307/9308  20329.049769838: …`) followed by its call chain, one
/// frame a line (`\t  7faf48f045a0 symbol (object)`, the leaf first), and a blank line. Samples are
/// handed over one at a time, so memory holds one sample, never the file. Bounded: the file's
/// bytes, a line's bytes, a sample's frames and the samples have limits; errors name the file and line.
public struct PerfScriptReader {
    /// The longest line read (a longer one is refused): 64 KiB.
    public static let maximumLineBytes = 1 << 16
    /// The most frames one sample may have (perf stops at `kernel.perf_event_max_stack`, 127 by default).
    public static let maximumFrames = 1024
    /// The most samples a file may hold.
    public static let maximumSamples = 10_000_000

    private let file: String
    private var lineNumber = 0
    private var current: PerfSample?
    private var samples = 0

    init(file: String) { self.file = file }

    /// Reads the file at `path`, at most `limit` bytes, in 64 KiB chunks, calling `each` with every sample.
    public static func read(path: String, limit: Int, each: (PerfSample) -> Void) throws(SamplingError) {
        var reader = PerfScriptReader(file: path)
        let rest: [UInt8]
        do {
            rest = try FileIO.readChunks(path, limit: limit) { (pending: inout [UInt8]) throws(SamplingError) in try reader.consumeLines(&pending, each: each) }
        } catch {
            switch error {
            case .unreadable(let reason): throw .unreadable(file: path, reason: reason)
            case .tooLarge: throw .unreadable(file: path, reason: "larger than the \(limit >> 20) MiB perf's samples may be")
            case .consumer(let failure): throw failure
            }
        }
        try reader.finish(rest: rest, each: each)
    }

    /// Reads `bytes`, the text `perf script` printed (`file` names it in errors).
    public static func parse(_ bytes: [UInt8], file: String, each: (PerfSample) -> Void) throws(SamplingError) {
        var reader = PerfScriptReader(file: file)
        var pending = bytes
        try reader.consumeLines(&pending, each: each)
        try reader.finish(rest: pending, each: each)
    }

    /// Every sample of `bytes` (a convenience for tests and small inputs).
    public static func samples(_ bytes: [UInt8], file: String) throws(SamplingError) -> [PerfSample] {
        var out: [PerfSample] = []
        try parse(bytes, file: file) { out.append($0) }
        return out
    }

    /// Reads every complete line of `buffer` and leaves the incomplete rest in it.
    private mutating func consumeLines(_ buffer: inout [UInt8], each: (PerfSample) -> Void) throws(SamplingError) {
        var start = 0
        while let newline = buffer[start...].firstIndex(of: 0x0A) {
            try line(buffer[start..<newline], each: each)
            start = newline + 1
        }
        buffer.removeSubrange(0..<start)
        if buffer.count > Self.maximumLineBytes { throw failure(lineNumber + 1, "a line longer than \(Self.maximumLineBytes) bytes") }
    }

    /// The last line (without a newline) and the last sample.
    private mutating func finish(rest: [UInt8], each: (PerfSample) -> Void) throws(SamplingError) {
        if !rest.isEmpty { try line(rest[...], each: each) }
        if let sample = current { each(sample) }
        current = nil
    }

    private func failure(_ line: Int, _ reason: String) -> SamplingError { .scriptFormat(file: file, line: line, reason: reason) }

    private mutating func line(_ bytes: ArraySlice<UInt8>, each: (PerfSample) -> Void) throws(SamplingError) {
        lineNumber += 1
        guard bytes.count <= Self.maximumLineBytes else { throw failure(lineNumber, "a line longer than \(Self.maximumLineBytes) bytes") }
        let trimmed = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        if trimmed.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            if let sample = current { each(sample) }
            current = nil
            return
        }
        if bytes.first == 0x09 {
            guard current != nil else { throw failure(lineNumber, "a frame before any sample's header") }
            guard current!.frames.count < Self.maximumFrames else { throw failure(lineNumber, "a sample with more than \(Self.maximumFrames) frames") }
            current!.frames.append(try frame(trimmed))
            return
        }
        if let sample = current { each(sample) }
        samples += 1
        guard samples <= Self.maximumSamples else { throw failure(lineNumber, "more than \(Self.maximumSamples) samples") }
        current = try header(trimmed)
    }

    /// `9307/9308  20329.049769838: …`: the pid, tid and time; the rest (an event name) is ignored.
    private func header(_ text: ArraySlice<UInt8>) throws(SamplingError) -> PerfSample {
        guard let slash = text.firstIndex(of: UInt8(ascii: "/")),
            let pid = Self.integer(text[text.startIndex..<slash])
        else { throw failure(lineNumber, "expected a sample's 'pid/tid time:', found '\(Self.quoted(text))'") }
        let afterSlash = text[(slash + 1)...]
        let tidEnd = afterSlash.firstIndex { $0 == 0x20 || $0 == 0x09 } ?? afterSlash.endIndex
        guard let tid = Self.integer(afterSlash[afterSlash.startIndex..<tidEnd]) else {
            throw failure(lineNumber, "'\(Self.quoted(afterSlash[afterSlash.startIndex..<tidEnd]))' is not a thread id")
        }
        let timeText = afterSlash[tidEnd...].drop { $0 == 0x20 || $0 == 0x09 }
        guard let colon = timeText.firstIndex(of: UInt8(ascii: ":")), let time = Self.nanoseconds(timeText[timeText.startIndex..<colon]) else {
            throw failure(lineNumber, "expected a sample's time 'seconds.nanoseconds:' after its thread id")
        }
        return PerfSample(pid: pid, tid: tid, nanoseconds: time, frames: [])
    }

    /// `7faf48f045a0 symbol (object)` (leading blanks already dropped).
    private func frame(_ text: ArraySlice<UInt8>) throws(SamplingError) -> PerfFrame {
        let addressEnd = text.firstIndex(of: 0x20) ?? text.endIndex
        guard addressEnd > text.startIndex, addressEnd - text.startIndex <= 16,
            let address = UInt64(String(decoding: text[text.startIndex..<addressEnd], as: UTF8.self), radix: 16)
        else { throw failure(lineNumber, "expected a frame's hexadecimal address, found '\(Self.quoted(text))'") }
        var rest = text[addressEnd...].drop { $0 == 0x20 }
        while let last = rest.last, last == 0x20 || last == 0x0D { rest = rest.dropLast() }
        guard rest.count >= 2, rest.last == UInt8(ascii: ")"), let open = Self.lastOpening(rest) else {
            throw failure(lineNumber, "expected a frame's '(object)' at the end of the line")
        }
        let object = String(decoding: rest[(open + 1)..<(rest.endIndex - 1)], as: UTF8.self)
        let symbol = String(decoding: rest[rest.startIndex..<open], as: UTF8.self).trimmingSuffixBlanks
        return PerfFrame(
            address: address, symbol: symbol == "[unknown]" || symbol.isEmpty ? nil : symbol,
            object: object == "[unknown]" || object.isEmpty ? nil : object)
    }

    /// The index of the `(` that opens the line's object, the parenthesis group that ends the line
    /// (balanced: an object path may hold parentheses); `nil` when it does not open.
    private static func lastOpening(_ text: ArraySlice<UInt8>) -> Int? {
        var depth = 0
        var i = text.endIndex - 1
        while i >= text.startIndex {
            if text[i] == UInt8(ascii: ")") { depth += 1 }
            if text[i] == UInt8(ascii: "(") {
                depth -= 1
                if depth == 0 { return i == text.startIndex || text[i - 1] == 0x20 ? i : nil }
            }
            i -= 1
        }
        return nil
    }

    /// A decimal integer, `-1` allowed (perf's unknown pid), at most 10 digits.
    static func integer(_ text: ArraySlice<UInt8>) -> Int? {
        let digits = text.first == UInt8(ascii: "-") ? text.dropFirst() : text
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        return text.first == UInt8(ascii: "-") ? -value : value
    }

    /// `20329.049769838` (or with fewer decimals) in nanoseconds; `nil` for anything else or past UInt64.
    static func nanoseconds(_ text: ArraySlice<UInt8>) -> UInt64? {
        let dot = text.firstIndex(of: UInt8(ascii: ".")) ?? text.endIndex
        let whole = text[text.startIndex..<dot]
        let fraction = dot < text.endIndex ? text[(dot + 1)...] : []
        guard !whole.isEmpty, whole.count <= 10, fraction.count <= 9,
            (whole + fraction).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { return nil }
        let seconds = whole.reduce(UInt64(0)) { $0 * 10 + UInt64($1 - 0x30) }
        var nanos = fraction.reduce(UInt64(0)) { $0 * 10 + UInt64($1 - 0x30) }
        for _ in fraction.count..<9 { nanos *= 10 }
        return seconds * 1_000_000_000 + nanos
    }

    /// A line's text for an error message: one line, at most 80 characters.
    static func quoted(_ text: ArraySlice<UInt8>) -> String {
        let string = String(decoding: text.prefix(80), as: UTF8.self)
        return String(string.map { $0.isASCII && ($0.asciiValue! < 0x20 || $0.asciiValue! == 0x7F) ? "?" : $0 })
    }
}

extension String {
    /// The string without the blanks at its end.
    fileprivate var trimmingSuffixBlanks: String {
        var view = Substring(self)
        while view.last == " " { view = view.dropLast() }
        return String(view)
    }
}
