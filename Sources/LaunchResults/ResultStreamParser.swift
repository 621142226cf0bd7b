#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchStats

/// The parser behind ``ResultTableReader``.
final class ResultStreamParser {
    let scanner: JSONScanner
    let path: String

    // Where the parser is, for messages. The state touched for every phase skips the runtime
    // exclusivity checks: one thread parses, and no access to it overlaps another.
    @exclusivity(unchecked) var topKey: String?
    @exclusivity(unchecked) var runIndex = -1
    @exclusivity(unchecked) var listName: StaticString?
    @exclusivity(unchecked) var listIndex = -1
    @exclusivity(unchecked) var field: StaticString?
    @exclusivity(unchecked) var generic: [String] = []

    // The header: every top-level member but `runs`, copied as JSON.
    var header: [UInt8] = [0x7B]
    var headerMembers = 0
    var schemaVersion: Int?
    var sawRuns = false

    // The table being built.
    @exclusivity(unchecked) var rows: [PhaseTable.Row] = []
    @exclusivity(unchecked) var rowByPath: [String: Int32] = [:]
    @exclusivity(unchecked) var rowByNode: [UInt64: Int32] = [:]
    @exclusivity(unchecked) var names = NameInterner()
    var totals: [Double] = []
    var hostTotals: [Double] = []
    var instructionTotals: [Double] = []
    var deferred: [String] = []
    /// Each run's marks, made into rows at the end (``PhaseTable/markRows(_:)``).
    var runMarks: [[(name: String, time: Double)]] = []
    /// Each run's tap latencies, when it had taps.
    var runTapLatencies: [[Double]] = []
    /// Taps lost, over all runs, and each run's dirty memory after its background step (``TabulatedResult``).
    var tapsLost = 0
    var dirtyAfterBackground: [Int] = []
    /// Each run's process record, when it has one (`launchprof exec`).
    var runProcesses: [ProcessRecord] = []
    /// Each run's counters for the whole launch (``RunRecord/launchCounters``), and the current run's parts.
    var totalCounters: [PhaseCounters] = []
    var topLevelCounters: PhaseCounters?
    var processCounters: PhaseCounters?
    var runCount = 0
    @exclusivity(unchecked) var scratch: [UInt8] = []

    /// Whether phases go through ``PlainPhaseScanner`` first (always, but in tests of the general parser).
    let plainScanner: Bool

    init(input: JSONInput, plainScanner: Bool = true) {
        self.plainScanner = plainScanner
        scanner = JSONScanner(input: input)
        path = input.path
        scanner.keyPath = { [unowned self] in self.currentKeyPath() }
    }

    func parse() throws(ResultError) -> TabulatedResult {
        do {
            return try document()
        } catch {
            let position = error.line < 0 ? nil : ResultPosition(keyPath: error.keyPath, line: error.line, column: error.column)
            switch (error.kind, position) {
            case (.syntax, let position?): throw .invalidJSON(path: path, position: position, problem: error.message)
            case (.schema, _): throw .malformed(path: path, position: position, problem: error.message)
            case (.syntax, nil), (.limit, _): throw .refused(path: path, position: position, reason: error.message)
            case (.input(let failure), _): throw .refused(path: path, position: position, reason: ResultError(path: path, failure).reason)
            }
        }
    }

    func currentKeyPath() -> String {
        var text = topKey ?? ""
        if runIndex >= 0 { text += "[\(runIndex)]" }
        if let listName { text += ".\(listName)" }
        if listIndex >= 0 { text += "[\(listIndex)]" }
        if let field { text += ".\(field)" }
        for part in generic { text += part.hasPrefix("[") ? part : ".\(part)" }
        return text
    }

    func schema(_ message: String) -> JSONFailure { scanner.failure(.schema, message) }

    // MARK: Document

    func document() throws(JSONFailure) -> TabulatedResult {
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

    func finish() throws(JSONFailure) -> TabulatedResult {
        // Worded as the Codable reader words it.
        guard let schema = schemaVersion else { throw .plain(.limit, "not a launchprof result (no schemaVersion)") }
        guard LaunchResult.readableSchemaVersions.contains(schema) else {
            let versions = LaunchResult.readableSchemaVersions
            throw .plain(
                .limit,
                "result schema version \(schema) is not supported (this launchprof \(launchprofVersion) reads versions \(versions.lowerBound) to \(versions.upperBound))"
            )
        }
        if sawRuns { appendHeaderMember("runs") { self.header += Array("[]".utf8) } }
        header.append(0x7D)
        let decoded: LaunchResult
        do {
            decoded = try ResultFile.decodeModel(header)
        } catch {
            throw .plain(.schema, error.problem)
        }
        var table = PhaseTable(
            rows: rows + PhaseTable.markRows(runMarks) + PhaseTable.tapLatencyRow(runTapLatencies) + PhaseTable.processRows(runProcesses), totals: totals,
            hostTotals: hostTotals, instructionTotals: instructionTotals,
            deferred: deferred, runCount: runCount)
        table.totalCounters = totalCounters
        return TabulatedResult(header: decoded, table: table, tapsLost: tapsLost, dirtyBytesAfterBackground: dirtyAfterBackground)
    }

    // MARK: Header copy

    func appendHeaderKey(_ key: String) {
        if headerMembers > 0 { header.append(0x2C) }
        headerMembers += 1
        appendJSONString(key)
        header.append(0x3A)
    }

    func appendHeaderMember(_ key: String, _ value: () -> Void) {
        appendHeaderKey(key)
        value()
    }

    func appendJSONString(_ text: String) {
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

    func appendRaw(_ start: Int, _ count: Int) {
        header.append(contentsOf: UnsafeBufferPointer(start: scanner.input.base + start, count: count))
    }

    func checkHeaderSize() throws(JSONFailure) {
        if header.count > ResultLimits.maximumHeaderBytes {
            throw scanner.failure(.limit, "the result's description outside \"runs\" is over \(ResultLimits.maximumHeaderBytes >> 20) MiB")
        }
    }

    // MARK: Generic values

    /// Checks (and, with `copy`, copies into the header) any JSON value; `depth` is its nesting level.
    func value(depth: Int, copy: Bool) throws(JSONFailure) {
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
    func unknown(_ key: String, depth: Int) throws(JSONFailure) {
        generic.append(key)
        try value(depth: depth, copy: false)
        generic.removeLast()
    }

    // MARK: Typed fields

    func isNull() throws(JSONFailure) -> Bool {
        guard try scanner.peek() == 0x6E else { return false }
        _ = try scanner.literal()
        return true
    }

    func intValue() throws(JSONFailure) -> Int {
        guard let c = try scanner.peek(), c == 0x2D || (c >= 0x30 && c <= 0x39) else { throw typeMismatch("an integer") }
        return try scanner.integer(try scanner.number())
    }

    func doubleValue() throws(JSONFailure) -> Double {
        guard let c = try scanner.peek(), c == 0x2D || (c >= 0x30 && c <= 0x39) else { throw typeMismatch("a number") }
        return try scanner.double(try scanner.number())
    }

    /// Checks a number as ``doubleValue()`` does, without converting it when that is not needed; returns 0.
    func checkedDoubleValue() throws(JSONFailure) -> Double {
        guard let c = try scanner.peek(), c == 0x2D || (c >= 0x30 && c <= 0x39) else { throw typeMismatch("a number") }
        try scanner.checkDouble(try scanner.number())
        return 0
    }

    func boolValue() throws(JSONFailure) -> Bool {
        guard let c = try scanner.peek(), c == 0x74 || c == 0x66 else { throw typeMismatch("true or false") }
        return try scanner.literal() == 0x74
    }

    func stringValue() throws(JSONFailure) -> String {
        guard try scanner.peek() == 0x22 else { throw typeMismatch("a string") }
        return scanner.text(try scanner.string())
    }

    func typeMismatch(_ expected: String) -> JSONFailure {
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
    func array(depth: Int, _ element: (Int) throws(JSONFailure) -> Void) throws(JSONFailure) {
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
    func object(depth: Int, keys: KeySet, _ member: (Int) throws(JSONFailure) -> Void) throws(JSONFailure) {
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

    // The phases of the run being read.
    @exclusivity(unchecked) var phaseRows: [Int32] = []
    /// The row node (parent row, name) and row of each phase index in the latest run that had it.
    @exclusivity(unchecked) var nodeAtIndex: [UInt64] = []
    @exclusivity(unchecked) var rowAtIndex: [Int32] = []
}
