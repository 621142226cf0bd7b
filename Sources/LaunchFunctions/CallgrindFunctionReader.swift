#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// A streaming reader of Callgrind's output format (valgrind.org/docs/manual/cl-format.html) for
/// the function costs of each part: `fn=`/`cfn=` with name compression (`(id) name`, then `(id)`),
/// `ob=`/`cob=` for object files, `calls=` with the call's inclusive cost on the next line, self
/// costs, `part:`, `desc: Trigger:`, `events:` and `summary:`. Every part's self costs must add up to
/// its summary (so a truncated file is caught). Bounded: lines, names and parts have limits; errors
/// name the file and line.
public struct CallgrindFunctionReader {
    /// The longest line read (a longer one is refused): 64 KiB.
    public static let maximumLineBytes = 1 << 16
    /// The most distinct function and object names a file may define.
    public static let maximumNames = 1 << 20
    /// The most parts (dumps) a file may hold.
    public static let maximumParts = 1 << 20

    private let file: String
    private var lineNumber = 0
    private var functions: [RunFunctionProfile.GraphFunction] = []
    private var functionIndex: [String: Int] = [:]
    private var functionOfID: [Int: Int] = [:]
    private var objectOfID: [Int: String] = [:]
    private var parts: [CallgrindProfile.Part] = []
    // The part being read.
    private var inPart = false
    private var label: String?
    private var summary: Int?
    private var selfSum = 0
    private var costs: [Int: CallgrindProfile.Costs] = [:]
    private var calls: [Int: [Int: Int]] = [:]
    private var object = ""
    private var calledObject: String?
    private var function: Int?
    private var pendingCall: (target: Int, count: Int)?

    init(file: String) { self.file = file }

    /// Reads the file at `path`, at most `limit` bytes, in 64 KiB chunks.
    public static func read(path: String, limit: Int) throws(FunctionError) -> CallgrindProfile {
        var reader = CallgrindFunctionReader(file: path)
        let rest: [UInt8]
        do { rest = try FileIO.readChunks(path, limit: limit) { (pending: inout [UInt8]) throws(FunctionError) in try reader.consumeLines(&pending) } } catch {
            switch error {
            case .unreadable(let reason): throw .unreadable(file: path, reason: reason)
            case .tooLarge: throw .unreadable(file: path, reason: "larger than the \(limit >> 20) MiB a Callgrind file may be")
            case .consumer(let failure): throw failure
            }
        }
        return try reader.finish(rest: rest)
    }

    /// Reads `bytes`, the text of a Callgrind output file (`file` names it in errors).
    public static func parse(_ bytes: [UInt8], file: String) throws(FunctionError) -> CallgrindProfile {
        var reader = CallgrindFunctionReader(file: file)
        var pending = bytes
        try reader.consumeLines(&pending)
        return try reader.finish(rest: pending)
    }

    /// Reads every complete line of `buffer` and leaves the incomplete rest in it.
    private mutating func consumeLines(_ buffer: inout [UInt8]) throws(FunctionError) {
        var start = 0
        while let newline = buffer[start...].firstIndex(of: 0x0A) {
            try line(buffer[start..<newline])
            start = newline + 1
        }
        buffer.removeSubrange(0..<start)
        if buffer.count > Self.maximumLineBytes { throw failure(lineNumber + 1, "a line longer than \(Self.maximumLineBytes) bytes") }
    }

    private mutating func finish(rest: [UInt8]) throws(FunctionError) -> CallgrindProfile {
        if !rest.isEmpty { try line(rest[...]) }
        try endPart()
        guard !parts.isEmpty else { throw failure(lineNumber, "no summary: not a Callgrind output file") }
        return CallgrindProfile(functions: functions, parts: parts)
    }

    private func failure(_ line: Int, _ reason: String) -> FunctionError {
        .callgrindFormat(file: file, line: line, reason: reason)
    }

    private mutating func line(_ bytes: ArraySlice<UInt8>) throws(FunctionError) {
        lineNumber += 1
        guard bytes.count <= Self.maximumLineBytes else { throw failure(lineNumber, "a line longer than \(Self.maximumLineBytes) bytes") }
        guard let first = bytes.first, first != UInt8(ascii: "#") else { return }
        if (first >= 0x30 && first <= 0x39) || first == UInt8(ascii: "+") || first == UInt8(ascii: "-") || first == UInt8(ascii: "*") {
            return try costLine(bytes)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let separator = text.firstIndex(where: { $0 == "=" || $0 == ":" }) else {
            throw failure(lineNumber, "not a line of the Callgrind format: '\(Self.excerpt(text))'")
        }
        let key = text[..<separator]
        let value = text[text.index(after: separator)...]
        if text[separator] == "=" {
            try specification(String(key), value)
        } else {
            try header(String(key), value.drop { $0 == " " })
        }
    }

    private mutating func header(_ key: String, _ value: Substring) throws(FunctionError) {
        switch key {
        case "part":
            try endPart()
            guard parts.count < Self.maximumParts else { throw failure(lineNumber, "more than \(Self.maximumParts) parts") }
            inPart = true
        case "desc":
            let trigger = "Trigger: Client Request: "
            if value.hasPrefix("Trigger: ") { label = value.hasPrefix(trigger) ? String(value.dropFirst(trigger.count)) : nil }
        case "events":
            let events = value.split(separator: " ")
            guard events.first == "Ir" else { throw failure(lineNumber, "the first event is '\(Self.excerpt(String(events.first ?? "")))', not Ir") }
        case "summary":
            guard let text = value.split(separator: " ").first, let count = Int(text), count >= 0 else {
                throw failure(lineNumber, "the summary is not a count of instructions")
            }
            summary = count
        default:
            break  // version, creator, pid, cmd, positions, totals, thread…: not needed
        }
    }

    private mutating func specification(_ key: String, _ value: Substring) throws(FunctionError) {
        switch key {
        case "ob":
            object = try name(value, objects: true)
        case "cob":
            calledObject = try name(value, objects: true)
        case "fn":
            let index = try functionName(value, object: object)
            function = index
            pendingCall = nil
        case "cfn":
            let index = try functionName(value, object: calledObject ?? object)
            pendingCall = (index, 0)
        case "calls":
            guard let target = pendingCall?.target else { throw failure(lineNumber, "calls= without a cfn= before it") }
            guard let text = value.split(separator: " ").first, let count = Int(text), count >= 0 else {
                throw failure(lineNumber, "calls=: '\(Self.excerpt(String(value)))' is not a count of calls")
            }
            pendingCall = (target, count)
        case "fl", "fi", "fe", "cfi", "cfl", "jump", "jcnd":
            break  // source files and jumps: not needed
        default:
            throw failure(lineNumber, "unknown specification '\(Self.excerpt(key))='")
        }
    }

    /// A cost line: a position, then the events' counts (`Ir` first; absent counts are 0).
    private mutating func costLine(_ bytes: ArraySlice<UInt8>) throws(FunctionError) {
        guard inPart || parts.isEmpty, let function else { throw failure(lineNumber, "a cost line before any fn=") }
        var fields = bytes.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: true).makeIterator()
        _ = fields.next()
        var count = 0
        if let field = fields.next() {
            guard let value = Self.integer(field), value >= 0 else {
                throw failure(lineNumber, "'\(Self.excerpt(String(decoding: field, as: UTF8.self)))' is not an instruction count")
            }
            count = value
        }
        if let call = pendingCall {
            if call.target != function {
                costs[function, default: .init()].calleeInstructions = try checkedSum(costs[function]?.calleeInstructions ?? 0, count)
                calls[function, default: [:]][call.target] = try checkedSum(calls[function]?[call.target] ?? 0, count)
            }
            costs[call.target, default: .init()].calls = try checkedSum(costs[call.target]?.calls ?? 0, call.count)
            pendingCall = nil
            calledObject = nil
        } else {
            costs[function, default: .init()].selfInstructions = try checkedSum(costs[function]?.selfInstructions ?? 0, count)
            selfSum = try checkedSum(selfSum, count)
        }
    }

    private func checkedSum(_ a: Int, _ b: Int) throws(FunctionError) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        guard !overflow else { throw failure(lineNumber, "the counts overflow") }
        return sum
    }

    private mutating func endPart() throws(FunctionError) {
        guard inPart || !costs.isEmpty || summary != nil else { return }
        guard let summary else { throw failure(lineNumber, "a part without a summary: line") }
        guard selfSum == summary else {
            throw failure(lineNumber, "the part's costs add up to \(selfSum) instructions, and its summary says \(summary) (is the file truncated?)")
        }
        parts.append(CallgrindProfile.Part(label: label, instructions: summary, costs: costs, calls: calls))
        inPart = false
        label = nil
        self.summary = nil
        selfSum = 0
        costs = [:]
        calls = [:]
        function = nil
        pendingCall = nil
    }

    /// A compressed name: `(id) name` defines id, `(id)` refers to it; a name without `(` is itself.
    private mutating func name(_ value: Substring, objects: Bool) throws(FunctionError) -> String {
        guard value.first == "(" else { return String(value) }
        guard let close = value.firstIndex(of: ")"), let id = Int(value[value.index(after: value.startIndex)..<close]), id >= 0 else {
            throw failure(lineNumber, "a compressed name is '(number) name', not '\(Self.excerpt(String(value)))'")
        }
        let rest = value[value.index(after: close)...].drop { $0 == " " }
        if rest.isEmpty {
            guard let known = objectOfID[id] else { throw failure(lineNumber, "name (\(id)) is used before it is defined") }
            return known
        }
        guard objectOfID.count < Self.maximumNames else { throw failure(lineNumber, "more than \(Self.maximumNames) names") }
        objectOfID[id] = String(rest)
        return String(rest)
    }

    /// The index of the function `value` names (compressed or not), defined in `object` when new.
    private mutating func functionName(_ value: Substring, object: String) throws(FunctionError) -> Int {
        var text = value
        var id: Int?
        if value.first == "(" {
            guard let close = value.firstIndex(of: ")"), let number = Int(value[value.index(after: value.startIndex)..<close]), number >= 0 else {
                throw failure(lineNumber, "a compressed name is '(number) name', not '\(Self.excerpt(String(value)))'")
            }
            id = number
            text = value[value.index(after: close)...].drop { $0 == " " }
            if text.isEmpty {
                guard let known = functionOfID[number] else { throw failure(lineNumber, "function (\(number)) is used before it is defined") }
                return known
            }
        }
        let name = Self.withoutRecursionLevel(text)
        let key = object + "\u{0}" + name
        let index: Int
        if let known = functionIndex[key] {
            index = known
        } else {
            guard functions.count < Self.maximumNames else { throw failure(lineNumber, "more than \(Self.maximumNames) function names") }
            index = functions.count
            functions.append(RunFunctionProfile.GraphFunction(name: name, object: object))
            functionIndex[key] = index
        }
        if let id { functionOfID[id] = index }
        return index
    }

    /// `name'2` (Callgrind's second recursion level of `name`) as `name`.
    static func withoutRecursionLevel(_ name: Substring) -> String {
        guard let quote = name.lastIndex(of: "'"), quote != name.startIndex else { return String(name) }
        let level = name[name.index(after: quote)...]
        return !level.isEmpty && level.allSatisfy(\.isASCII) && level.allSatisfy(\.isNumber) ? String(name[..<quote]) : String(name)
    }

    /// A decimal count (Callgrind writes them in decimal; `0x` for addresses only).
    static func integer(_ field: ArraySlice<UInt8>) -> Int? {
        guard !field.isEmpty, field.count <= 19 else { return nil }
        var value = 0
        for byte in field {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// At most 80 characters of `text`, for a message.
    static func excerpt(_ text: String) -> String {
        text.count <= 80 ? text : String(text.prefix(77)) + "..."
    }
}
