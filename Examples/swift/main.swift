// launchprof-example-swift: loads a keypad from a config file (Examples/keypad.conf), lays its keys
// out on a grid and draws it as text, reporting each phase to launchprof through the
// LaunchprofClient library. Without LAUNCHPROF_FD it just runs.
//
//     swift build --product launchprof-example-swift
//     launchprof exec -- .build/debug/launchprof-example-swift Examples/keypad.conf
import Glibc
import LaunchprofClient

Launchprof.start()  // first thing: the `main` reading, and this thread is number 0

struct Keypad {
    var title = ""
    var width = 0
    var rows: [[String]] = []
}

struct ConfigError: Error, CustomStringConvertible {
    var description: String
}

/// The file's bytes as text.
func readFile(_ path: String) throws(ConfigError) -> String {
    guard let file = fopen(path, "rb") else {
        throw ConfigError(description: "cannot read \(path): \(String(cString: strerror(errno)))")
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&chunk, 1, chunk.count, file)
        if n == 0 { break }
        bytes += chunk[..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// `key = value` lines; an error names the line.
func parse(_ text: String, path: String) throws(ConfigError) -> Keypad {
    var keypad = Keypad()
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        func fail(_ reason: String) -> ConfigError { ConfigError(description: "\(path):\(index + 1): \(reason)") }
        let line = rawLine.trimmingSpaces
        if line.isEmpty || line.hasPrefix("#") { continue }
        guard let equals = line.firstIndex(of: "=") else { throw fail("expected 'key = value'") }
        let key = line[..<equals].trimmingSpaces, value = line[line.index(after: equals)...].trimmingSpaces
        switch key {
        case "title": keypad.title = String(value)
        case "width":
            guard let width = Int(value), (8...198).contains(width) else { throw fail("width must be 8 to 198") }
            keypad.width = width
        case "row":
            let labels = value.split(separator: " ").map(String.init)
            if let first = keypad.rows.first, first.count != labels.count { throw fail("every row needs \(first.count) keys") }
            keypad.rows.append(labels)
        default: throw fail("unknown key '\(key)'")
        }
    }
    guard keypad.width > 0, !keypad.rows.isEmpty else { throw ConfigError(description: "\(path): needs a width and at least one row") }
    return keypad
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return text
    }
}

/// Each key's left edge and the keys' inner width: the columns share the width, one border between keys.
func layOut(_ keypad: Keypad) -> (left: [Int], inner: Int) {
    let columns = keypad.rows[0].count
    let inner = max(1, (keypad.width - 1) / columns - 1)
    return ((0..<columns).map { $0 * (inner + 1) }, inner)
}

func draw(_ keypad: Keypad, left: [Int], inner: Int) -> String {
    let columns = left.count, total = columns * (inner + 1) + 1
    let rule = String(repeating: "+" + String(repeating: "-", count: inner), count: columns) + "+\n"
    let title = String(keypad.title.prefix(total - 2))
    let pad = (total - 2 - title.count) / 2
    var out = "+" + String(repeating: "-", count: total - 2) + "+\n"
    out += "|" + String(repeating: " ", count: pad) + title + String(repeating: " ", count: total - 2 - title.count - pad) + "|\n"
    out += rule
    for row in keypad.rows {
        var line = Array(repeating: Character(" "), count: total)
        for (column, label) in row.enumerated() {
            line[left[column]] = "|"
            let shown = Array(label.prefix(inner))
            let at = left[column] + 1 + (inner - shown.count) / 2
            line.replaceSubrange(at..<(at + shown.count), with: shown)
        }
        line[total - 1] = "|"
        out += String(line) + "\n" + rule
    }
    return out
}

/// Writes all of `text` to `descriptor` (stdout or stderr, unbuffered: the frame is out when this returns).
func writeAll(_ descriptor: Int32, _ text: String) {
    var text = text
    text.withUTF8 { bytes in
        var done = 0
        while done < bytes.count {
            let n = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            done += n
        }
    }
}

guard CommandLine.arguments.count == 2 else {
    writeAll(STDERR_FILENO, "usage: launchprof-example-swift CONFIG\n")
    exit(2)
}
let path = CommandLine.arguments[1]
do {
    let keypad = try Launchprof.phase("loading config", kind: .io) { () throws(ConfigError) -> Keypad in
        let text = try Launchprof.phase("reading file", kind: .io) { () throws(ConfigError) in try readFile(path) }
        return try Launchprof.phase("parsing", kind: .cpu) { () throws(ConfigError) in try parse(text, path: path) }
    }
    let (left, inner) = Launchprof.phase("laying out keys", kind: .cpu) { layOut(keypad) }
    Launchprof.count(keypad.rows.count * left.count, "keys laid out")
    Launchprof.phase("drawing", kind: .draw) {
        writeAll(STDOUT_FILENO, draw(keypad, left: left, inner: inner))
        Launchprof.mark("first frame")
    }
    Launchprof.mark("interactive")
    Launchprof.done()
} catch {
    writeAll(STDERR_FILENO, "launchprof-example-swift: \(error)\n")
    exit(1)
}
