#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchStats

/// The fast reader of result files for `diff` and `check`: one streaming pass over the file, read
/// in bounded chunks (``JSONInput``), that builds the ``PhaseTable`` directly — phase paths
/// interned once, per-path arrays of durations and instruction counts — without materialising a
/// `PhaseRecord` per phase or holding the file in memory.
///
/// It checks what ``ResultFile/decode(_:path:)`` checks (that reader runs this one's validation
/// first, so the two accept and refuse the same files): strict JSON, nesting of at most
/// ``ResultLimits/maximumNesting`` levels, the file size and token limits, the types of every field
/// of runs, phases, marks and counters, finite numbers, parents earlier than their children,
/// non-negative durations and counts, and a supported schema version. Everything outside `runs`
/// (at most ``ResultLimits/maximumHeaderBytes``) is decoded with the `Codable` model.
public enum ResultTableReader {
    /// Reads the result file at `path`.
    public static func read(_ path: String) throws(ResultFile.ReadError) -> TabulatedResult {
        let input = try JSONInput(path: path, limit: ResultLimits.maximumFileBytes)
        return try ResultStreamParser(input: input).parse()
    }

    /// Reads the result files at `paths` at once, each on a thread of its own (the first on the
    /// calling thread), so the two results of a diff take about as long as the larger one on two
    /// cores. The outcomes come in the order of `paths`, exactly as ``read(_:)`` gives them.
    public static func read(all paths: [String]) -> [Result<TabulatedResult, ResultFile.ReadError>] {
        guard let first = paths.first else { return [] }
        let others = paths.dropFirst().map(ReadJob.init)
        var started: [ReadJob] = []
        for job in others {
            let context = Unmanaged.passRetained(job).toOpaque()
            let status = pthread_create(
                &job.thread, nil,
                { raw in
                    guard let raw else { return nil }
                    let job = Unmanaged<ReadJob>.fromOpaque(raw).takeRetainedValue()
                    job.outcome = ResultTableReader.outcome(job.path)
                    return nil
                }, context)
            if status == 0 {
                started.append(job)
            } else {
                // No thread to spare: read it here, after the others.
                Unmanaged<ReadJob>.fromOpaque(context).release()
            }
        }
        let firstOutcome = outcome(first)
        for job in started { pthread_join(job.thread, nil) }
        return [firstOutcome] + others.map { $0.outcome ?? outcome($0.path) }
    }

    /// ``read(_:)`` as a value.
    static func outcome(_ path: String) -> Result<TabulatedResult, ResultFile.ReadError> {
        do throws(ResultFile.ReadError) {
            return .success(try read(path))
        } catch {
            return .failure(error)
        }
    }

    /// Tabulates a result document held in memory.
    public static func tabulate(_ bytes: [UInt8], path: String) throws(ResultFile.ReadError) -> TabulatedResult {
        try tabulate(bytes, path: path, fastLane: true)
    }

    /// ``tabulate(_:path:)``, with or without the phases' fast lane (tests compare the two).
    static func tabulate(_ bytes: [UInt8], path: String, fastLane: Bool) throws(ResultFile.ReadError) -> TabulatedResult {
        guard bytes.count <= ResultLimits.maximumFileBytes else {
            throw ResultFile.ReadError(path: path, reason: "is \(bytes.count) bytes, over the \(ResultLimits.maximumFileBytes >> 20) MiB limit for a result")
        }
        let outcome: Result<TabulatedResult, ResultFile.ReadError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(ResultFile.ReadError) {
                return .success(try ResultStreamParser(input: JSONInput(path: path, bytes: buffer), fastLane: fastLane).parse())
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}

/// One file of ``ResultTableReader/read(all:)`` read on its own thread: written by that thread
/// only, read by the caller only after `pthread_join`.
private final class ReadJob: @unchecked Sendable {
    let path: String
    var thread = pthread_t()
    var outcome: Result<TabulatedResult, ResultFile.ReadError>?

    init(path: String) { self.path = path }
}

/// The parser behind ``ResultTableReader``.
final class ResultStreamParser {
    private let scanner: JSONScanner
    private let path: String

    // Where the parser is, for messages. The state touched for every phase skips the runtime
    // exclusivity checks: one thread parses, and no access to it overlaps another.
    @exclusivity(unchecked) private var topKey: String?
    @exclusivity(unchecked) private var runIndex = -1
    @exclusivity(unchecked) private var listName: StaticString?
    @exclusivity(unchecked) private var listIndex = -1
    @exclusivity(unchecked) private var field: StaticString?
    @exclusivity(unchecked) private var generic: [String] = []

    // The header: every top-level member but `runs`, copied as JSON.
    private var header: [UInt8] = [0x7B]
    private var headerMembers = 0
    private var schemaVersion: Int?
    private var sawRuns = false

    // The table being built.
    @exclusivity(unchecked) private var rows: [PhaseTable.Row] = []
    @exclusivity(unchecked) private var rowByPath: [String: Int32] = [:]
    @exclusivity(unchecked) private var rowByNode: [UInt64: Int32] = [:]
    @exclusivity(unchecked) private var names = NameInterner()
    private var totals: [Double] = []
    private var hostTotals: [Double] = []
    private var instructionTotals: [Double] = []
    private var deferred: [String] = []
    /// Each run's marks, made into rows at the end (``PhaseTable/markRows(_:)``).
    private var runMarks: [[(name: String, time: Double)]] = []
    /// Each run's tap latencies, when it had taps.
    private var runTapLatencies: [[Double]] = []
    /// Taps lost, over all runs, and each run's dirty memory after its background step (``TabulatedResult``).
    private var tapsLost = 0
    private var dirtyAfterBackground: [Int] = []
    /// Each run's process record, when it has one (`launchprof exec`).
    private var runProcesses: [ProcessRecord] = []
    /// Each run's counters for the whole launch (``RunRecord/launchCounters``), and the current run's parts.
    private var totalCounters: [PhaseCounters] = []
    private var topLevelCounters: PhaseCounters?
    private var processCounters: PhaseCounters?
    private var runCount = 0
    @exclusivity(unchecked) private var scratch: [UInt8] = []

    /// Whether phases go through ``PhaseFastLane`` first (always, but in tests of the general parser).
    private let fastLane: Bool

    init(input: JSONInput, fastLane: Bool = true) {
        self.fastLane = fastLane
        scanner = JSONScanner(input: input)
        path = input.path
        scanner.keyPath = { [unowned self] in self.currentKeyPath() }
    }

    func parse() throws(ResultFile.ReadError) -> TabulatedResult {
        do {
            return try document()
        } catch {
            if error.line < 0 {
                throw ResultFile.ReadError(path: path, reason: error.kind == .schema ? "malformed result: \(error.message)" : error.message)
            }
            let position = "line \(error.line), column \(error.column)"
            let at = error.keyPath.isEmpty ? "" : "\(error.keyPath): "
            switch error.kind {
            case .syntax:
                throw ResultFile.ReadError(
                    path: path,
                    reason: "not a launchprof result (invalid JSON at \(position)\(error.keyPath.isEmpty ? "" : ", in \(error.keyPath)"): \(error.message))")
            case .schema: throw ResultFile.ReadError(path: path, reason: "malformed result: \(at)\(error.message) (\(position))")
            case .limit: throw ResultFile.ReadError(path: path, reason: "\(at)\(error.message) (\(position))")
            }
        }
    }

    private func currentKeyPath() -> String {
        var text = topKey ?? ""
        if runIndex >= 0 { text += "[\(runIndex)]" }
        if let listName { text += ".\(listName)" }
        if listIndex >= 0 { text += "[\(listIndex)]" }
        if let field { text += ".\(field)" }
        for part in generic { text += part.hasPrefix("[") ? part : ".\(part)" }
        return text
    }

    private func schema(_ message: String) -> JSONFailure { scanner.failure(.schema, message) }

    // MARK: Document

    private func document() throws(JSONFailure) -> TabulatedResult {
        // A byte-order mark is tolerated, as the Codable reader tolerates it.
        var available = scanner.input.end - scanner.input.pos >= 3
        if !available { available = try scanner.refill() }
        if available {
            let b = scanner.input.base, p = scanner.input.pos
            if scanner.input.end - p >= 3 && b[p] == 0xEF && b[p + 1] == 0xBB && b[p + 2] == 0xBF { scanner.input.pos += 3 }
        }
        guard try scanner.peek() == 0x7B else {
            let empty = try scanner.peek() == nil
            let message = empty ? "the file is empty" : try scanner.found("'{' (a result is a JSON object)")
            throw scanner.syntax(message)
        }
        scanner.input.pos += 1
        var seen = Set<String>()
        if try scanner.peek() == 0x7D {
            scanner.input.pos += 1
        } else {
            repeat {
                let keyToken = try scanner.string()
                let key = scanner.text(keyToken)
                guard seen.insert(key).inserted else { throw schema("the key \"\(key)\" appears twice") }
                try scanner.expect(0x3A, "':'")
                topKey = key
                if key == "runs" {
                    sawRuns = true
                    try runs()
                } else {
                    if key == "schemaVersion", let c = try scanner.peek(), c == 0x2D || (c >= 0x30 && c <= 0x39) {
                        let token = try scanner.number()
                        if token.isInteger { schemaVersion = try? scanner.integer(token) }
                        appendHeaderMember(key) { self.appendRaw(token.start, token.count) }
                    } else {
                        appendHeaderKey(key)
                        try value(depth: 2, copy: true)
                    }
                }
                topKey = nil
            } while try scanner.commaOr(0x7D, "',' or '}'")
        }
        if try scanner.peek() != nil {
            let message = try scanner.found("the end of the file after the result")
            throw scanner.syntax(message)
        }
        return try finish()
    }

    private func finish() throws(JSONFailure) -> TabulatedResult {
        guard let schema = schemaVersion else {
            throw JSONFailure(kind: .syntax, message: "", keyPath: "", line: 0, column: 0).noSchemaVersion
        }
        guard LaunchResult.readableSchemaVersions.contains(schema) else {
            let versions = LaunchResult.readableSchemaVersions
            throw JSONFailure(
                kind: .limit,
                message:
                    "result schema version \(schema) is not supported (this launchprof \(launchprofVersion) reads versions \(versions.lowerBound) to \(versions.upperBound))",
                keyPath: "", line: 0, column: 0
            ).plain
        }
        if sawRuns { appendHeaderMember("runs") { self.header += Array("[]".utf8) } }
        header.append(0x7D)
        let decoded: LaunchResult
        do {
            decoded = try ResultFile.decodeModel(header)
        } catch {
            throw JSONFailure(kind: .schema, message: error.description, keyPath: "", line: 0, column: 0).plain
        }
        var table = PhaseTable(
            rows: rows + PhaseTable.markRows(runMarks) + PhaseTable.tapLatencyRow(runTapLatencies) + PhaseTable.processRows(runProcesses), totals: totals,
            hostTotals: hostTotals, instructionTotals: instructionTotals,
            deferred: deferred, runCount: runCount)
        table.totalCounters = totalCounters
        return TabulatedResult(header: decoded, table: table, tapsLost: tapsLost, dirtyBytesAfterBackground: dirtyAfterBackground)
    }

    // MARK: Header copy

    private func appendHeaderKey(_ key: String) {
        if headerMembers > 0 { header.append(0x2C) }
        headerMembers += 1
        appendJSONString(key)
        header.append(0x3A)
    }

    private func appendHeaderMember(_ key: String, _ value: () -> Void) {
        appendHeaderKey(key)
        value()
    }

    private func appendJSONString(_ text: String) {
        header.append(0x22)
        for unit in text.utf8 {
            switch unit {
            case 0x22, 0x5C: header += [0x5C, unit]
            case 0..<0x20: header += Array("\\u00".utf8) + Array(String(unit >> 4, radix: 16).utf8) + Array(String(unit & 15, radix: 16).utf8)
            default: header.append(unit)
            }
        }
        header.append(0x22)
    }

    private func appendRaw(_ start: Int, _ count: Int) {
        header.append(contentsOf: UnsafeBufferPointer(start: scanner.input.base + start, count: count))
    }

    private func checkHeaderSize() throws(JSONFailure) {
        if header.count > ResultLimits.maximumHeaderBytes {
            throw scanner.failure(.limit, "the result's description outside \"runs\" is over \(ResultLimits.maximumHeaderBytes >> 20) MiB")
        }
    }

    // MARK: Generic values

    /// Checks (and, with `copy`, copies into the header) any JSON value; `depth` is its nesting level.
    private func value(depth: Int, copy: Bool) throws(JSONFailure) {
        guard let c = try scanner.peek() else { throw scanner.syntax("expected a value, found the end of the file") }
        switch c {
        case 0x7B, 0x5B:
            guard depth <= ResultLimits.maximumNesting else {
                throw scanner.failure(.limit, "nesting deeper than \(ResultLimits.maximumNesting) levels")
            }
            scanner.input.pos += 1
            if copy { header.append(c); try checkHeaderSize() }
            let close: UInt8 = c == 0x7B ? 0x7D : 0x5D
            if try scanner.peek() == close {
                scanner.input.pos += 1
                if copy { header.append(close) }
                return
            }
            var index = 0
            var keys = Set<String>()
            repeat {
                if index > 0 && copy { header.append(0x2C) }
                if c == 0x7B {
                    let keyToken = try scanner.string()
                    if copy { header.append(0x22); appendRaw(keyToken.start, keyToken.count); header.append(0x22) }
                    let key = scanner.text(keyToken)
                    guard keys.insert(key).inserted else { throw schema("the key \"\(key)\" appears twice") }
                    try scanner.expect(0x3A, "':'")
                    if copy { header.append(0x3A) }
                    generic.append(key)
                } else {
                    generic.append("[\(index)]")
                }
                try value(depth: depth + 1, copy: copy)
                generic.removeLast()
                index += 1
            } while try scanner.commaOr(close, c == 0x7B ? "',' or '}'" : "',' or ']'")
            if copy { header.append(close) }
        case 0x22:
            let token = try scanner.string()
            if copy { header.append(0x22); appendRaw(token.start, token.count); header.append(0x22); try checkHeaderSize() }
        case 0x2D, 0x30...0x39:
            let token = try scanner.number()
            try scanner.checkDouble(token)
            if copy { appendRaw(token.start, token.count); try checkHeaderSize() }
        default:
            let start = scanner.input.pos
            let first = try scanner.literal()
            if copy { appendRaw(start, scanner.input.pos - start) }
            _ = first
        }
    }

    /// Skips the value of an unknown key inside a typed object at nesting `depth`.
    private func unknown(_ key: String, depth: Int) throws(JSONFailure) {
        generic.append(key)
        try value(depth: depth, copy: false)
        generic.removeLast()
    }

    // MARK: Typed fields

    private func isNull() throws(JSONFailure) -> Bool {
        guard try scanner.peek() == 0x6E else { return false }
        _ = try scanner.literal()
        return true
    }

    private func intValue() throws(JSONFailure) -> Int {
        guard let c = try scanner.peek(), c == 0x2D || (c >= 0x30 && c <= 0x39) else { throw typeMismatch("an integer") }
        return try scanner.integer(try scanner.number())
    }

    private func doubleValue() throws(JSONFailure) -> Double {
        guard let c = try scanner.peek(), c == 0x2D || (c >= 0x30 && c <= 0x39) else { throw typeMismatch("a number") }
        return try scanner.double(try scanner.number())
    }

    /// Checks a number as ``doubleValue()`` does, without converting it when that is not needed; returns 0.
    private func checkedDoubleValue() throws(JSONFailure) -> Double {
        guard let c = try scanner.peek(), c == 0x2D || (c >= 0x30 && c <= 0x39) else { throw typeMismatch("a number") }
        try scanner.checkDouble(try scanner.number())
        return 0
    }

    private func boolValue() throws(JSONFailure) -> Bool {
        guard let c = try scanner.peek(), c == 0x74 || c == 0x66 else { throw typeMismatch("true or false") }
        return try scanner.literal() == 0x74
    }

    private func stringValue() throws(JSONFailure) -> String {
        guard try scanner.peek() == 0x22 else { throw typeMismatch("a string") }
        return scanner.text(try scanner.string())
    }

    private func typeMismatch(_ expected: String) -> JSONFailure {
        let c = (try? scanner.peek()) ?? nil
        let found: String
        switch c {
        case 0x22: found = "a string"
        case 0x7B: found = "an object"
        case 0x5B: found = "an array"
        case 0x6E: found = "null"
        case 0x74, 0x66: found = "a boolean"
        case nil: found = "the end of the file"
        default: found = "a number"
        }
        if c == 0x22 || c == 0x7B || c == 0x5B || c == 0x6E || c == 0x74 || c == 0x66 || c == 0x2D || (c.map { $0 >= 0x30 && $0 <= 0x39 } ?? false) {
            return schema("expected \(expected), found \(found)")
        }
        return scanner.syntax((try? scanner.found("a value")) ?? "expected a value")
    }

    /// Iterates an array at nesting `depth`, calling `element` with each index.
    private func array(depth: Int, _ element: (Int) throws(JSONFailure) -> Void) throws(JSONFailure) {
        guard try scanner.peek() == 0x5B else { throw typeMismatch("an array") }
        guard depth <= ResultLimits.maximumNesting else { throw scanner.failure(.limit, "nesting deeper than \(ResultLimits.maximumNesting) levels") }
        scanner.input.pos += 1
        if try scanner.peek() == 0x5D { scanner.input.pos += 1; return }
        var index = 0
        repeat {
            try element(index)
            index += 1
        } while try scanner.commaOr(0x5D, "',' or ']'")
    }

    /// Iterates an object at nesting `depth`: each key is looked up in `keys` (before the token can
    /// move in the buffer), and `member` is called with its index; unknown keys are checked and skipped.
    private func object(depth: Int, keys: KeySet, _ member: (Int) throws(JSONFailure) -> Void) throws(JSONFailure) {
        guard try scanner.peek() == 0x7B else { throw typeMismatch("an object") }
        guard depth <= ResultLimits.maximumNesting else { throw scanner.failure(.limit, "nesting deeper than \(ResultLimits.maximumNesting) levels") }
        scanner.input.pos += 1
        if try scanner.peek() == 0x7D { scanner.input.pos += 1; return }
        var unknownKeys = Set<String>()
        repeat {
            let token = try scanner.string()
            let index = keys.index(of: token, in: scanner.input.base)
            let name = index < 0 ? scanner.text(token) : ""
            try scanner.expect(0x3A, "':'")
            if index >= 0 {
                try member(index)
            } else {
                // A known key spelled with escapes would be read by one reader and skipped by another.
                guard !keys.names.contains(where: { "\($0)" == name }) else { throw schema("the key \"\(name)\" must be written without escapes") }
                guard unknownKeys.insert(name).inserted else { throw schema("the key \"\(name)\" appears twice") }
                try unknown(name, depth: depth + 1)
            }
        } while try scanner.commaOr(0x7D, "',' or '}'")
    }

    // MARK: Runs

    // The keys of each typed object, in the order of the indices their parsers switch on.
    private static let runKeys = KeySet([
        "phases", "total", "index", "pid", "marks", "counters", "deferred", "peakResidentBytes", "instructions", "taps", "process"
    ])
    private static let processKeys = KeySet(["user", "system", "exitStatus", "signal", "killedOverMemoryLimit", "counters"])
    private static let phaseCounterKeys = KeySet([
        "cpuTime", "runnableTime", "minorFaults", "majorFaults", "voluntarySwitches", "involuntarySwitches", "bytesRead", "bytesWritten"
    ])
    private static let phaseKeys = PhaseFastLane.keys
    private static let markKeys = KeySet(["name", "time", "thread"])
    private static let tapKeys = KeySet(["delivered", "lost", "latencies"])
    private static let counterKeys = KeySet(["name", "value"])

    private func runs() throws(JSONFailure) {
        try array(depth: 2) { (r: Int) throws(JSONFailure) in
            runIndex = r
            try run()
            runIndex = -1
        }
    }

    @exclusivity(unchecked) private var phaseRows: [Int32] = []
    @exclusivity(unchecked) private var phaseDepths: [Int] = []
    /// The row node (parent row, name) and row of each phase index in the latest run that had it.
    @exclusivity(unchecked) private var nodeAtIndex: [UInt64] = []
    @exclusivity(unchecked) private var rowAtIndex: [Int32] = []

    private func run() throws(JSONFailure) {
        var seen: UInt16 = 0
        var total: Double?
        var instructions: Int?
        var hostSaving = 0.0
        var runDeferred: [String]?
        topLevelCounters = nil
        processCounters = nil
        phaseRows.removeAll(keepingCapacity: true)
        phaseDepths.removeAll(keepingCapacity: true)
        func once(_ bit: UInt16, _ name: StaticString) throws(JSONFailure) {
            guard seen & bit == 0 else { throw schema("the key \"\(name)\" appears twice") }
            seen |= bit
            field = name
        }
        try object(depth: 3, keys: Self.runKeys) { (key: Int) throws(JSONFailure) in
            defer { field = nil }
            if key == 0 {
                try once(1, "phases")
                field = nil
                listName = "phases"
                try array(depth: 4) { (i: Int) throws(JSONFailure) in
                    listIndex = i
                    try phase(i, hostSaving: &hostSaving)
                    listIndex = -1
                }
                listName = nil
            } else if key == 1 {
                try once(2, "total")
                total = try doubleValue()
            } else if key == 2 {
                try once(4, "index")
                _ = try intValue()
            } else if key == 3 {
                try once(8, "pid")
                if try !isNull() { _ = try intValue() }
            } else if key == 4 {
                try once(16, "marks")
                try marks()
            } else if key == 5 {
                try once(32, "counters")
                try counters()
            } else if key == 6 {
                try once(64, "deferred")
                var names: [String] = []
                try array(depth: 4) { (i: Int) throws(JSONFailure) in
                    generic = ["[\(i)]"]
                    names.append(try stringValue())
                    generic = []
                }
                runDeferred = names
            } else if key == 7 {
                try once(128, "peakResidentBytes")
                if try !isNull() { _ = try intValue() }
            } else if key == 9 {
                try once(512, "taps")
                if try !isNull() { try taps() }
            } else if key == 10 {
                try once(1024, "process")
                if try !isNull() { try process() }
            } else if key == 8 {
                try once(256, "instructions")
                if try !isNull() {
                    let count = try intValue()
                    guard count >= 0 else { throw schema("an instruction count must not be negative, found \(count)") }
                    instructions = count
                }
            }
        }
        for (bit, name) in [(UInt16(1), "phases"), (2, "total"), (4, "index"), (16, "marks"), (32, "counters"), (64, "deferred")] where seen & bit == 0 {
            throw schema("missing key \"\(name)\"")
        }
        guard let total, let runDeferred else { throw schema("missing key") }
        if runCount == 0 { deferred = runDeferred }
        totals.append(total)
        hostTotals.append(total - hostSaving)
        if let instructions { instructionTotals.append(Double(instructions)) }
        if let counters = processCounters ?? topLevelCounters { totalCounters.append(counters) }
        runCount += 1
    }

    /// A phase by the fast lane when it can read it, else by the general parser; both then apply the
    /// same checks and make the same row.
    private func phase(_ index: Int, hostSaving: inout Double) throws(JSONFailure) {
        var f = PhaseFields()
        if try !fastPhase(into: &f) { f = try phaseFields() }
        try record(f, index: index, hostSaving: &hostSaving)
    }

    /// Reads the phase at the current position by ``PhaseFastLane`` into `f`, consumed; `false`
    /// (nothing consumed, `f` empty) when the fast lane leaves it to the general parser.
    private func fastPhase(into f: inout PhaseFields) throws(JSONFailure) -> Bool {
        guard fastLane, try scanner.peek() == 0x7B else { return false }
        let input = scanner.input
        var outcome = PhaseFastLane.Outcome(nameStart: 0, nameCount: 0, end: 0, newlines: 0, lastLineStart: 0)
        guard PhaseFastLane.scan(input.base, from: input.pos, end: input.end, into: &f, outcome: &outcome) else {
            f = PhaseFields()
            return false
        }
        f.name = names.intern(bytes: UnsafeBufferPointer(start: input.base + outcome.nameStart, count: outcome.nameCount))
        if outcome.newlines > 0 {
            input.line += outcome.newlines
            input.lineStart = input.offset(at: outcome.lastLineStart)
        }
        input.pos = outcome.end
        return true
    }

    /// The phase at the current position by the general parser.
    private func phaseFields() throws(JSONFailure) -> PhaseFields {
        var f = PhaseFields()
        var seen: UInt16 = 0
        func once(_ bit: UInt16, _ name: StaticString) throws(JSONFailure) {
            guard seen & bit == 0 else { throw schema("the key \"\(name)\" appears twice") }
            seen |= bit
            field = name
        }
        try object(depth: 5, keys: Self.phaseKeys) { (key: Int) throws(JSONFailure) in
            defer { field = nil }
            if key == 0 {
                try once(1, "duration")
                f.duration = try doubleValue()
            } else if key == 1 {
                try once(2, "name")
                guard try scanner.peek() == 0x22 else { throw typeMismatch("a string") }
                let token = try scanner.string()
                f.name = names.intern(token, scanner: scanner, scratch: &scratch)
            } else if key == 2 {
                try once(4, "start")
                // Only checked: the table has no use for start times.
                f.start = try checkedDoubleValue()
            } else if key == 3 {
                try once(8, "depth")
                f.depth = try intValue()
            } else if key == 4 {
                try once(16, "thread")
                f.thread = try intValue()
            } else if key == 5 {
                try once(32, "afterLaunch")
                f.afterLaunch = try boolValue()
            } else if key == 6 {
                try once(64, "parent")
                if try !isNull() { f.parent = try intValue() }
            } else if key == 7 {
                try once(128, "kind")
                if try !isNull() {
                    let text = try stringValue()
                    guard let kind = PhaseKind(rawValue: text) else {
                        throw schema("\"\(text.prefix(40))\" is not a phase kind (\(PhaseKind.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                    f.kind = kind
                }
            } else if key == 8 {
                try once(256, "instructions")
                if try !isNull() { f.instructions = try intValue() }
            } else if key == 9 {
                try once(512, "hostDuration")
                if try !isNull() { f.hostDuration = try doubleValue() }
            } else if key == 10 {
                try once(1024, "residentBytes")
                if try !isNull() { f.residentBytes = try intValue() }
            } else if key == 11 {
                try once(2048, "residentGrowth")
                if try !isNull() { f.residentGrowth = try intValue() }
            } else if key == 12 {
                try once(4096, "background")
                if try !isNull() { f.background = try boolValue() }
            } else if key == 13 {
                try once(8192, "counters")
                if try !isNull() { f.counters = try phaseCounters(depth: 6) }
            }
        }
        return f
    }

    /// Checks a phase's fields and adds its values to its row.
    private func record(_ f: PhaseFields, index: Int, hostSaving: inout Double) throws(JSONFailure) {
        guard f.name >= 0 else { throw schema("missing key \"name\"") }
        guard let start = f.start else { throw schema("missing key \"start\"") }
        guard let duration = f.duration else { throw schema("missing key \"duration\"") }
        guard let thread = f.thread else { throw schema("missing key \"thread\"") }
        guard let depth = f.depth else { throw schema("missing key \"depth\"") }
        guard let afterLaunch = f.afterLaunch else { throw schema("missing key \"afterLaunch\"") }
        _ = start
        // The same consistency rules as ResultFile.consistencyProblem, with the same words.
        if let parent = f.parent, parent < 0 || parent >= index {
            field = "parent"
            throw schema("\(parent) is not an earlier phase of the run")
        }
        guard duration >= 0 else { throw schema("start and duration must be finite, and the duration not negative") }
        if let host = f.hostDuration, host < 0 { field = "hostDuration"; throw schema("must be a finite, non-negative number") }
        guard depth >= 0, thread >= 0 else { throw schema("depth and thread must not be negative") }
        guard depth <= ResultLimits.maximumPhaseDepth else {
            field = "depth"; throw schema("\(depth) is deeper than the \(ResultLimits.maximumPhaseDepth) levels of phases a result may nest")
        }
        if let count = f.instructions, count < 0 { field = "instructions"; throw schema("an instruction count must not be negative, found \(count)") }

        // The phase's row: by its parent's row and its name, so a path string is built only once per row.
        let parentRow: Int32 = f.parent.map { phaseRows[$0] } ?? -1
        let node = UInt64(UInt32(bitPattern: parentRow)) << 32 | UInt64(UInt32(bitPattern: f.name))
        let row: Int32
        if index < nodeAtIndex.count && nodeAtIndex[index] == node {
            // The same phase at the same index as in the run before: the common case, without hashing.
            row = rowAtIndex[index]
        } else if let existing = rowByNode[node] {
            row = existing
        } else {
            let name = names.strings[Int(f.name)]
            let path = parentRow >= 0 ? rows[Int(parentRow)].path + "/" + name : name
            if let existing = rowByPath[path] {
                row = existing
            } else {
                row = Int32(rows.count)
                rowByPath[path] = row
                var newRow = PhaseTable.Row(path: path, name: name, depth: depth, kind: f.kind, afterLaunch: afterLaunch)
                newRow.inBackground = f.background == true
                newRow.onWorkerThread = thread != 0
                rows.append(newRow)
            }
            rowByNode[node] = row
        }
        phaseRows.append(row)
        if index < nodeAtIndex.count {
            nodeAtIndex[index] = node
            rowAtIndex[index] = row
        } else if index == nodeAtIndex.count {
            nodeAtIndex.append(node)
            rowAtIndex.append(row)
        }
        let r = Int(row)
        rows[r].durations.append(duration)
        if let host = f.hostDuration { rows[r].hostDurations.append(host) }
        if let rss = f.residentBytes { rows[r].residentBytes.append(rss) }
        if let growth = f.residentGrowth { rows[r].residentGrowth.append(growth) }
        if let count = f.instructions { rows[r].instructions.append(Double(count)) }
        if let counters = f.counters {
            rows[r].addCounters(counters, duration: duration)
            if depth == 0 && !afterLaunch { topLevelCounters = topLevelCounters.map { $0 + counters } ?? counters }
        }
        // The main thread's waits only: a worker's overlap them, and the total is the main thread's.
        if depth == 0 && !afterLaunch && thread == 0, let host = f.hostDuration { hostSaving += duration - host }
    }

    private func marks() throws(JSONFailure) {
        let saved = field
        field = nil
        listName = "marks"
        defer { listName = nil; field = saved }
        var found: [(name: String, time: Double)] = []
        defer { runMarks.append(found) }
        try array(depth: 4) { (i: Int) throws(JSONFailure) in
            listIndex = i
            var name = false, time = false, thread = false
            var markName = "", markTime = 0.0
            defer { if name && time { found.append((markName, markTime)) } }
            try object(depth: 5, keys: Self.markKeys) { (key: Int) throws(JSONFailure) in
                defer { field = nil }
                if key == 0 {
                    guard !name else { throw schema("the key \"name\" appears twice") }
                    field = "name"; name = true; markName = try stringValue()
                } else if key == 1 {
                    guard !time else { throw schema("the key \"time\" appears twice") }
                    field = "time"; time = true; markTime = try doubleValue()
                } else {
                    guard !thread else { throw schema("the key \"thread\" appears twice") }
                    field = "thread"; thread = true; _ = try intValue()
                }
            }
            guard name else { throw schema("missing key \"name\"") }
            guard time else { throw schema("missing key \"time\"") }
            guard thread else { throw schema("missing key \"thread\"") }
            listIndex = -1
        }
    }

    private func taps() throws(JSONFailure) {
        let saved = field
        defer { field = saved }
        var latencies: [Double] = []
        var seen: UInt8 = 0
        try object(depth: 4, keys: Self.tapKeys) { (key: Int) throws(JSONFailure) in
            defer { field = nil }
            guard seen & (1 << key) == 0 else { throw schema("a key of \"taps\" appears twice") }
            seen |= 1 << key
            if key == 0 || key == 1 {
                field = key == 0 ? "delivered" : "lost"
                let count = try intValue()
                guard count >= 0 else { throw schema("a tap count must not be negative") }
                if key == 1 { tapsLost = tapsLost.addingReportingOverflow(count).overflow ? Int.max : tapsLost + count }
            } else {
                field = "latencies"
                try array(depth: 5) { (i: Int) throws(JSONFailure) in
                    generic = ["[\(i)]"]
                    let value = try doubleValue()
                    guard value >= 0 else { throw schema("a latency must not be negative") }
                    latencies.append(value)
                    generic = []
                }
            }
        }
        guard seen == 7 else { throw schema("\"taps\" needs delivered, lost and latencies") }
        runTapLatencies.append(latencies)
    }

    private func process() throws(JSONFailure) {
        let saved = field
        defer { field = saved }
        var record = ProcessRecord(user: 0, system: 0, exitStatus: nil)
        var seen: UInt8 = 0
        try object(depth: 4, keys: Self.processKeys) { (key: Int) throws(JSONFailure) in
            defer { field = nil }
            guard seen & (1 << key) == 0 else { throw schema("a key of \"process\" appears twice") }
            seen |= 1 << key
            switch key {
            case 0, 1:
                field = key == 0 ? "user" : "system"
                let seconds = try doubleValue()
                guard seconds >= 0 else { throw schema("a CPU time must not be negative") }
                if key == 0 { record.user = seconds } else { record.system = seconds }
            case 4:
                field = "killedOverMemoryLimit"
                if try !isNull() { record.killedOverMemoryLimit = try boolValue() }
            case 5:
                field = "counters"
                if try !isNull() {
                    record.counters = try phaseCounters(depth: 5, at: ["process", "counters"])
                    processCounters = record.counters
                }
            default:
                field = key == 2 ? "exitStatus" : "signal"
                if try !isNull() {
                    let value = try intValue()
                    guard (0...255).contains(value) else { throw schema("an exit status or signal must be from 0 to 255, found \(value)") }
                    if key == 2 { record.exitStatus = value } else { record.signal = value }
                }
            }
        }
        guard seen & 3 == 3 else { throw schema("\"process\" needs user and system") }
        runProcesses.append(record)
    }

    /// A phase's or process's system counters (``PhaseCounters``): every value a non-negative number,
    /// `cpuTime`, the faults and the switches required.
    private func phaseCounters(depth: Int, at path: [String] = ["counters"]) throws(JSONFailure) -> PhaseCounters {
        let saved = field
        defer { field = saved }
        var values: [Double?] = Array(repeating: nil, count: 8)
        let names = ["cpuTime", "runnableTime", "minorFaults", "majorFaults", "voluntarySwitches", "involuntarySwitches", "bytesRead", "bytesWritten"]
        try object(depth: depth, keys: Self.phaseCounterKeys) { (key: Int) throws(JSONFailure) in
            defer { field = nil }
            guard values[key] == nil else { throw schema("a key of \"counters\" appears twice") }
            field = nil
            generic = path + [names[key]]
            defer { generic = [] }
            if try isNull() { values[key] = -1; return }
            let value = key < 2 ? try doubleValue() : Double(try intValue())
            guard value >= 0 else { throw schema("a counter must not be negative, found \(value)") }
            values[key] = value
        }
        generic = path
        defer { generic = [] }
        for key in [0, 2, 3, 4, 5] where values[key] == nil || values[key]! < 0 { throw schema("\"counters\" needs \(names[key])") }
        func int(_ key: Int) -> Int? { values[key].flatMap { $0 >= 0 ? Int($0) : nil } }
        return PhaseCounters(
            cpuTime: values[0]!, runnableTime: values[1].flatMap { $0 >= 0 ? $0 : nil }, minorFaults: int(2)!, majorFaults: int(3)!,
            voluntarySwitches: int(4)!, involuntarySwitches: int(5)!, bytesRead: int(6), bytesWritten: int(7))
    }

    private func counters() throws(JSONFailure) {
        let saved = field
        field = nil
        listName = "counters"
        defer { listName = nil; field = saved }
        try array(depth: 4) { (i: Int) throws(JSONFailure) in
            listIndex = i
            var name = false, value = false
            var isDirtyAfterBackground = false, number = 0
            try object(depth: 5, keys: Self.counterKeys) { (key: Int) throws(JSONFailure) in
                defer { field = nil }
                if key == 0 {
                    guard !name else { throw schema("the key \"name\" appears twice") }
                    field = "name"; name = true
                    isDirtyAfterBackground = try stringValue() == TabulatedResult.dirtyAfterBackgroundCounter
                } else {
                    guard !value else { throw schema("the key \"value\" appears twice") }
                    field = "value"; value = true; number = try intValue()
                }
            }
            guard name else { throw schema("missing key \"name\"") }
            guard value else { throw schema("missing key \"value\"") }
            if isDirtyAfterBackground { dirtyAfterBackground.append(number) }
            listIndex = -1
        }
    }
}

extension JSONFailure {
    /// The failure for a document without `schemaVersion` (worded as the Codable reader words it).
    var noSchemaVersion: JSONFailure {
        JSONFailure(kind: .limit, message: "not a launchprof result (no schemaVersion)", keyPath: "", line: 0, column: 0).plain
    }

    /// A failure whose message is the whole reason (no position or key path).
    var plain: JSONFailure {
        var copy = self
        copy.line = -1
        return copy
    }
}

/// Phase names interned by their bytes: one `String` per distinct name, and names that are equal as
/// Swift strings (canonically equivalent Unicode) share one number, as they share a path in
/// ``PhaseTable/init(_:)``.
struct NameInterner {
    private(set) var strings: [String] = []
    private var byString: [String: Int32] = [:]
    // Open addressing over the raw bytes: (hash, offset, length, id) slots into `arena`.
    private var arena: [UInt8] = []
    private var slots: [Slot] = Array(repeating: Slot(), count: 1024)
    private var used = 0

    private struct Slot {
        var hash: UInt64 = 0
        var offset: Int32 = 0
        var count: Int32 = -1
        var id: Int32 = -1
    }

    mutating func intern(_ token: JSONScanner.StringToken, scanner: JSONScanner, scratch: inout [UInt8]) -> Int32 {
        if token.hasEscapes {
            let bytes = scanner.decoded(token, into: &scratch)
            return bytes.withUnsafeBufferPointer { intern(bytes: $0) }
        }
        return intern(bytes: UnsafeBufferPointer(start: scanner.input.base + token.start, count: token.count))
    }

    mutating func intern(bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        var i = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        while slots[i].count >= 0 {
            let slot = slots[i]
            if slot.hash == hash && Int(slot.count) == bytes.count {
                let same = arena.withUnsafeBufferPointer { arena in
                    bytes.count == 0 || memcmp(arena.baseAddress! + Int(slot.offset), bytes.baseAddress!, bytes.count) == 0
                }
                if same { return slot.id }
            }
            i = (i + 1) & (slots.count - 1)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let id: Int32
        if let existing = byString[text] {
            id = existing
        } else {
            id = Int32(strings.count)
            strings.append(text)
            byString[text] = id
        }
        slots[i] = Slot(hash: hash, offset: Int32(arena.count), count: Int32(bytes.count), id: id)
        arena.append(contentsOf: bytes)
        used += 1
        if used * 2 > slots.count { grow() }
        return id
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(), count: old.count * 2)
        for slot in old where slot.count >= 0 {
            var i = Int(truncatingIfNeeded: slot.hash) & (slots.count - 1)
            while slots[i].count >= 0 { i = (i + 1) & (slots.count - 1) }
            slots[i] = slot
        }
    }
}

/// The keys of one kind of typed object, matched against key tokens without allocating: a small
/// open-addressed table by length and first and last byte, then a byte-wise comparison.
struct KeySet: Sendable {
    let names: [StaticString]
    /// Per slot: the key's index + 1 (0: empty).
    private let slots: [Int]
    /// The keys' bytes, end to end, and where each starts.
    private let bytes: [UInt8]
    private let starts: [Int]

    private static let slotCount = 64

    init(_ names: [StaticString]) {
        self.names = names
        var bytes: [UInt8] = [], starts: [Int] = []
        var slots = [Int](repeating: 0, count: Self.slotCount)
        for (i, name) in names.enumerated() {
            let key = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            starts.append(bytes.count)
            bytes += key
            var slot = Self.hash(name.utf8Start, name.utf8CodeUnitCount)
            while slots[slot] != 0 { slot = (slot + 1) & (Self.slotCount - 1) }
            slots[slot] = i + 1
        }
        starts.append(bytes.count)
        self.slots = slots
        self.bytes = bytes
        self.starts = starts
    }

    @inline(__always) private static func hash(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int {
        guard count > 0 else { return 0 }
        return (count &* 7 &+ Int(p[0]) &+ Int(p[count - 1]) &* 3) & (slotCount - 1)
    }

    /// The index of the key `token` spells (without escapes) in `base`, or -1.
    func index(of token: JSONScanner.StringToken, in base: UnsafePointer<UInt8>) -> Int {
        guard !token.hasEscapes else { return -1 }
        let start = base + token.start, count = token.count
        return slots.withUnsafeBufferPointer { slots in
            bytes.withUnsafeBufferPointer { bytes in
                starts.withUnsafeBufferPointer { starts in
                    var slot = Self.hash(start, count)
                    while true {
                        let entry = slots[slot]
                        if entry == 0 { return -1 }
                        let i = entry - 1
                        let from = starts[i]
                        if starts[i + 1] - from == count {
                            var k = 0
                            while k < count && bytes[from + k] == start[k] { k += 1 }
                            if k == count { return i }
                        }
                        slot = (slot + 1) & (Self.slotCount - 1)
                    }
                }
            }
        }
    }
}
