import LaunchCore

/// A client's output read back by the launcher's own ``ProtocolParser``: every line must be accepted
/// and end with a newline, and the report must be finished (`done`).
struct ProtocolReport {
    var run: RunRecord
    /// The lines as written, without their newlines.
    var lines: [[UInt8]]

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    init(_ output: [UInt8], spawnReading: UInt64) throws {
        guard output.last == UInt8(ascii: "\n") else {
            throw Problem(description: "the output does not end with a newline: \(output.suffix(80))")
        }
        lines = output.dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        var parser = ProtocolParser(spawnReading: spawnReading)
        for line in lines {
            guard line.count < 4096 else { throw Problem(description: "a line of \(line.count) bytes: not one atomic pipe write") }
            // As the launcher reads it (ProcessLauncher): each line decoded as UTF-8 on its own.
            try parser.consume(Substring(String(decoding: line, as: UTF8.self)))
        }
        guard parser.finished else { throw Problem(description: "no 'done' in \(lines.count) lines") }
        run = parser.run(index: 0, pid: nil)
    }

    /// The phases the program reported, without the launcher's `process start`.
    var phases: [PhaseRecord] { run.phases.filter { $0.name != ProtocolParser.processStartPhase } }

    /// The lines starting with `verb` and a space.
    func lines(_ verb: String) -> [[UInt8]] {
        lines.filter { $0.starts(with: Array((verb + " ").utf8)) }
    }
}
