/// Reads CPython's import times (`python -X importtime`, `PYTHONPROFILEIMPORTTIME=1`) from a
/// program's standard error and turns them into nested phases, one per imported module, named
/// `import <module>` (docs/traces.md).
///
/// The interpreter prints `import time: <self µs> | <cumulative µs> | <indent><module>` when each
/// import *finishes* (children before their parent), indented two spaces per level of nesting, after
/// a header line. A phase lasts the cumulative time (the import with everything it imported); its
/// children are the lines one level deeper printed just before it.
///
/// Start times are not printed: imports are laid end to end in the order they finished, from the
/// spawn, children from their parent's start. Each is shown at the earliest moment it could have
/// started (in one thread, an import cannot start before everything that finished before it has run),
/// so the starts are lower bounds and the durations exact. A parent lasts its cumulative time, or
/// the sum of its children's when the interpreter's rounding of each up to a whole microsecond makes
/// that longer (by at most 1 µs per child), so that children always fit in their parent.
public enum ImportTimeReader {
    /// How errors name the input.
    public static let source = "stderr of the program"

    static let marker = Array("import time:".utf8)
    static let header = Array("self [us] | cumulative | imported package".utf8)

    /// One import, once its line has been read.
    private struct Node {
        var module: String
        var level: Int
        /// The cumulative time, or the children's sum when larger (µs).
        var span: Int
        /// Levels of nesting below and including this import (1 for a leaf).
        var height: Int
        var children: [Int]
        var line: Int
    }

    /// The phases in `stderr`, and `stderr` without the import-time lines.
    ///
    /// - Throws: ``TraceError/malformed(source:line:column:event:reason:)`` naming ``source`` and the line: a malformed import-time line, a
    ///   negative self time or one larger than the cumulative time (imports in several threads), a
    ///   missing level of nesting, a second interpreter's header (a child Python process), no import
    ///   times at all, imports adding up to more than the run, or a limit (docs/limits.md).
    public static func read(stderr: [UInt8], clock: SpawnClock) throws(TraceError) -> TraceReading {
        var scan = Scan(stderr: stderr)
        try scan.readLines()
        guard !scan.tree.nodes.isEmpty else {
            throw .malformed(
                source: source,
                reason:
                    "no import times (lines 'import time: …'): the program did not run a Python interpreter, or ran it with -I or -E, which ignore PYTHONPROFILEIMPORTTIME"
            )
        }
        let timeline = try scan.tree.laidOut()
        do {
            let placed = try timeline.placed(clock: clock, candidates: [(.laidOutFromSpawn, 0)], allowEarliestAtSpawn: false)
            return TraceReading(phases: placed.phases, marks: [], stderr: scan.kept, anchor: placed.anchor)
        } catch {
            throw .malformed(
                source: source,
                reason: error.describe("the import times add up to") + ": imports ran in several threads at once, or the output holds another process's lines")
        }
    }

    /// One pass over a program's standard error: the import-time lines go into ``tree``, the rest
    /// (and what the program wrote before a marker on the same line) into ``kept``.
    private struct Scan {
        let stderr: [UInt8]
        var kept: [UInt8] = []
        var tree = ImportTree()
        var headers = 0

        init(stderr: [UInt8]) {
            self.stderr = stderr
            kept.reserveCapacity(stderr.count)
        }

        mutating func readLines() throws(TraceError) {
            var lineNumber = 0
            var lineStart = 0
            while lineStart < stderr.count {
                lineNumber += 1
                let newline = ByteSearch.first(0x0A, in: stderr, from: lineStart, to: stderr.count)
                let next = newline.map { $0 + 1 } ?? stderr.count
                try readLine(lineStart..<(newline ?? stderr.count), next: next, number: lineNumber)
                lineStart = next
            }
        }

        /// The line `line` (without its newline; the next line starts at `next`), number `number`.
        mutating func readLine(_ line: Range<Int>, next: Int, number: Int) throws(TraceError) {
            guard let markerAt = ByteSearch.first(marker, in: stderr, from: line.lowerBound, to: line.upperBound) else {
                kept += stderr[line.lowerBound..<next]
                return
            }
            func fail(_ reason: String) -> TraceError {
                TraceError.malformed(source: source, line: number, column: markerAt - line.lowerBound + 1, reason: reason)
            }
            var textEnd = line.upperBound
            if textEnd > markerAt + marker.count, stderr[textEnd - 1] == 0x0D { textEnd -= 1 }
            let text = stderr[(markerAt + marker.count)..<textEnd]
            if trimmed(text).elementsEqual(header) {
                headers += 1
                guard headers == 1 else {
                    throw fail(
                        "a second Python interpreter printed import times too (a child process that inherited PYTHONPROFILEIMPORTTIME): the lines of two processes cannot be told apart; run the interpreter itself (python3 SCRIPT …), so that launchprof passes -X importtime, which child processes do not inherit"
                    )
                }
            } else {
                // Mid-line, the marker is the interpreter's only if the rest reads as its line (the
                // program wrote part of a line just before): otherwise the line is the program's.
                let parsed: Entry
                do {
                    parsed = try entry(text)
                } catch {
                    guard markerAt == line.lowerBound else {
                        kept += stderr[line.lowerBound..<next]
                        return
                    }
                    throw fail(error.reason)
                }
                do {
                    try tree.add(parsed, line: number)
                } catch {
                    throw fail(error.reason)
                }
            }
            // What the program wrote before the marker on the same line stays in its output.
            if markerAt > line.lowerBound { kept += stderr[line.lowerBound..<markerAt] }
        }
    }

    /// The imports read so far: each finished import claims the deeper ones printed just before it.
    private struct ImportTree {
        var nodes: [Node] = []
        /// Imports whose parent has not finished (yet), in the order they finished.
        var unclaimed: [Int] = []

        /// Adds the import `parsed` (read on line `line`), with the imports one level deeper that
        /// finished just before it as its children.
        mutating func add(_ parsed: Entry, line: Int) throws(NotAnEntry) {
            guard nodes.count < TraceLimits.phases else {
                throw NotAnEntry(reason: "more than \(TraceLimits.phases) imports in one run (the phase limit)")
            }
            var children: [Int] = []
            while let top = unclaimed.last, nodes[top].level > parsed.level {
                guard nodes[top].level == parsed.level + 1 else {
                    throw NotAnEntry(
                        reason:
                            "the import of \(parsed.module) at level \(parsed.level) finishes right after one at level \(nodes[top].level), with none at level \(parsed.level + 1) between: a line of the interpreter's output is missing, or imports ran in several threads"
                    )
                }
                children.append(unclaimed.removeLast())
            }
            children.reverse()
            var span = 0, height = 0
            for child in children {
                span += nodes[child].span
                height = max(height, nodes[child].height)
            }
            guard height < TraceLimits.depth else {
                throw NotAnEntry(reason: "imports nested more than \(TraceLimits.depth) deep (the phase nesting limit)")
            }
            nodes.append(
                Node(module: parsed.module, level: parsed.level, span: max(parsed.cumulative, span), height: height + 1, children: children, line: line))
            unclaimed.append(nodes.count - 1)
        }

        /// Lays out: imports left unclaimed (the top level, and any whose parent never finished because
        /// the process ended first) end to end from the spawn; children from their parent's start.
        func laidOut() throws(TraceError) -> TraceTimeline {
            var timeline = TraceTimeline()
            var pending: [(node: Int, start: Int, parent: Int?)] = []
            var start = 0
            for root in unclaimed {
                pending.append((root, start, nil))
                start += nodes[root].span
            }
            pending.reverse()
            while let (index, start, parent) = pending.popLast() {
                let node = nodes[index]
                let phase: Int
                do {
                    phase = try timeline.add(
                        "import " + node.module, thread: 0, start: Double(start) / 1e6,
                        end: Double(start + node.span) / 1e6, parent: parent, origin: node.line)
                } catch {
                    throw .malformed(source: ImportTimeReader.source, line: node.line, reason: error.reason)
                }
                // Pushed last child first, so that the first is laid out next.
                var childEnd = start
                for child in node.children { childEnd += nodes[child].span }
                for child in node.children.reversed() {
                    childEnd -= nodes[child].span
                    pending.append((child, childEnd, phase))
                }
            }
            return timeline
        }
    }

    /// The parts of an import-time line after `import time:`.
    private typealias Entry = (module: String, level: Int, cumulative: Int)

    /// Why the text after `import time:` is not an import-time line.
    private struct NotAnEntry: Error {
        var reason: String
    }

    /// The fields of the text after `import time:`: `<self> | <cumulative> | <indent><module>`,
    /// read from the bytes (no string is made but the module's name).
    private static func entry(_ text: ArraySlice<UInt8>) throws(NotAnEntry) -> Entry {
        let bar = UInt8(ascii: "|")
        guard let first = text.firstIndex(of: bar), let second = text[(first + 1)...].firstIndex(of: bar) else {
            throw NotAnEntry(reason: "expected 'import time: <self µs> | <cumulative µs> | <module>'")
        }
        let limit = TraceLimits.importMicroseconds
        let selfText = trimmed(text[..<first]), cumulativeText = trimmed(text[(first + 1)..<second])
        guard let selfTime = integer(selfText), abs(selfTime) <= limit else {
            throw NotAnEntry(reason: "the self time '\(shown(selfText))' is not a whole number of microseconds up to \(limit)")
        }
        guard let cumulative = integer(cumulativeText), cumulative >= 0, cumulative <= limit else {
            throw NotAnEntry(reason: "the cumulative time '\(shown(cumulativeText))' is not a whole number of microseconds from 0 to \(limit)")
        }
        guard selfTime >= 0, selfTime <= cumulative else {
            throw NotAnEntry(
                reason:
                    "the self time \(selfTime) µs is \(selfTime < 0 ? "negative" : "larger than the cumulative time \(cumulative) µs"): imports ran in several threads at once, and the interpreter's nesting and times are then not reliable"
            )
        }
        // `| ` then two spaces per level, then the module.
        var name = text[(second + 1)...]
        guard name.first == UInt8(ascii: " ") else { throw NotAnEntry(reason: "expected a space after the second '|'") }
        name = name.dropFirst()
        let indent = name.prefix { $0 == UInt8(ascii: " ") }.count
        guard indent % 2 == 0 else {
            throw NotAnEntry(reason: "an indentation of \(indent) spaces is not a whole number of levels (two spaces each)")
        }
        let module = trimmed(name.dropFirst(indent))
        guard !module.isEmpty else { throw NotAnEntry(reason: "an import without a module name") }
        return (String(decoding: module, as: UTF8.self), indent / 2, cumulative)
    }

    /// A whole number of at most 15 digits, with an optional `-`; `nil` for anything else.
    private static func integer(_ text: ArraySlice<UInt8>) -> Int? {
        var digits = text
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 15 else { return nil }
        var value = 0
        for c in digits {
            guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(c - UInt8(ascii: "0"))
        }
        return negative ? -value : value
    }

    /// Without leading and trailing spaces and tabs.
    private static func trimmed(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var start = text.startIndex, end = text.endIndex
        while start < end, text[start] == 0x20 || text[start] == 0x09 { start += 1 }
        while end > start, text[end - 1] == 0x20 || text[end - 1] == 0x09 { end -= 1 }
        return text[start..<end]
    }

    /// Bytes of the trace shown in a message.
    private static func shown(_ text: ArraySlice<UInt8>) -> String {
        TraceError.clip(String(decoding: text, as: UTF8.self))
    }
}
