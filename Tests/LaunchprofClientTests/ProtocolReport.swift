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
            // As the launcher reads it (AppLauncher): each line decoded as UTF-8 on its own.
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

/// Names no client may garble, with what the launcher must read back for each (also for names the
/// clients cut: at most 4000 bytes once escaped, at a character boundary, never inside an escape).
enum HostileNames {
    static let cases: [(name: String, expected: String)] = [
        ("new\nline", "new\nline"), ("back\\slash", "back\\slash"), ("tab\there", "tab\there"),
        ("carriage\rreturn", "carriage\rreturn"), ("crlf\r\n", "crlf\r\n"), ("\\n literally", "\\n literally"),
        ("trailing backslash\\", "trailing backslash\\"), ("  spaces  ", "  spaces  "), ("#not a comment", "#not a comment"),
        ("caf\u{E9} \u{2192} \u{1F680}", "caf\u{E9} \u{2192} \u{1F680}"), ("", "(unnamed)"),
        (String(repeating: "a", count: 5000), String(repeating: "a", count: 4000)),
        (String(repeating: "\u{E9}", count: 2500), String(repeating: "\u{E9}", count: 2000)),
        (String(repeating: "\u{1F680}", count: 1250), String(repeating: "\u{1F680}", count: 1000)),
        (String(repeating: "\\", count: 5000), String(repeating: "\\", count: 2000)),
        (String(repeating: "x\n", count: 2500), String(repeating: "x\n", count: 1333) + "x"),
        ("y" + String(repeating: "\\", count: 4999), "y" + String(repeating: "\\", count: 1999)),
    ]
}
