import Foundation

/// The `launchprof` command lines a Markdown document shows: every line of a fenced code block and
/// every inline code span that runs `launchprof`, split as a POSIX shell would split them (quotes,
/// backslashes, `&&`/`||`/`;`/`|` between commands, comments, redirections, line continuations).
struct ShellCommandLines {
    /// One command line found in a document: where it is, and its arguments after `launchprof`.
    struct Found: CustomStringConvertible {
        var file: String
        var line: Int
        var text: String
        var arguments: [String]
        var description: String { "\(file):\(line): \(text)" }
    }

    /// Every `launchprof …` command in `markdown`, which came from `file`.
    ///
    /// In a shell fence (```` ```sh ````, `bash`, `console`, `yaml`) and after a `$ ` prompt, every
    /// `launchprof` line is a command. Elsewhere (an output sample, a protocol listing, prose) a line is
    /// one only when its first argument is a subcommand or an option, since `launchprof 1` is a
    /// protocol line and `launchprof 0.1.0: …` a report's header; a bare `launchprof check` in prose
    /// names the command and is not checked further.
    static func commands(in markdown: String, file: String, subcommands: Set<String>) -> [Found] {
        var found: [Found] = []
        var fence: Substring?
        var pending = "", pendingLine = 0, folding = false
        func add(_ text: String, line: Int, strict: Bool) {
            for arguments in commands(inShellLine: text) {
                let prompted = text.drop(while: { $0 == " " }).hasPrefix("$ ")
                guard strict || prompted || arguments.first.map({ subcommands.contains($0) || $0.hasPrefix("-") }) == true else { continue }
                if !strict, !prompted, arguments.count == 1, subcommands.contains(arguments[0]) { continue }
                found.append(Found(file: file, line: line, text: text, arguments: arguments))
            }
        }
        for (index, raw) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw)
            let trimmed = line.drop(while: { $0 == " " })
            if trimmed.hasPrefix("```") {
                if fence == nil {
                    fence = trimmed.dropFirst(3)
                } else {
                    if !pending.isEmpty { add(pending, line: pendingLine, strict: true) }
                    fence = nil
                }
                pending = ""
                folding = false
                continue
            }
            guard let language = fence else {
                for span in inlineCode(line) where !span.contains("…") && !span.contains("...") {
                    add(span, line: index + 1, strict: false)
                }
                continue
            }
            let strict = ["sh", "bash", "shell", "console", "yaml", "yml"].contains(language.trimmingCharacters(in: .whitespaces))
            // A YAML folded scalar (`run: >`): its more-indented lines are one shell line.
            if folding {
                if trimmed.isEmpty || line.prefix(while: { $0 == " " }).count > 0, !trimmed.contains(": "), !trimmed.hasPrefix("- ") {
                    pending += " " + trimmed
                    continue
                }
                add(pending, line: pendingLine, strict: strict)
                pending = ""
                folding = false
            }
            if language.hasPrefix("y"), trimmed.hasSuffix(": >") || trimmed.hasSuffix(": >-") {
                folding = true
                pendingLine = index + 1
                continue
            }
            if pending.isEmpty { pendingLine = index + 1 }
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
                continue
            }
            let whole = pending + line
            pending = ""
            add(whole, line: pendingLine, strict: strict)
        }
        return found
    }

    /// The inline code spans (`` `…` ``) of a line of prose.
    static func inlineCode(_ line: String) -> [String] {
        line.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The argument lists of the `launchprof` commands in one shell line (a prompt `$ ` dropped).
    static func commands(inShellLine line: String) -> [[String]] {
        var text = Substring(line).drop(while: { $0 == " " })
        if text.hasPrefix("$ ") { text = text.dropFirst(2) }
        if text.hasPrefix("- ") { text = text.dropFirst(2) }  // a YAML list item: `- launchprof …`
        if text.hasPrefix("run: ") { text = text.dropFirst(5) }  // a CI step: `run: launchprof …`
        return words(text).compactMap { command in
            var command = command.drop(while: { $0.contains("=") && !$0.hasPrefix("-") })  // VAR=value before a command
            guard let first = command.first, first == "launchprof" || first.hasSuffix("/launchprof") else { return nil }
            command = command.dropFirst()
            return Array(command)
        }
    }

    /// Shell words, grouped into the commands that `&&`, `||`, `;` and `|` separate; a `#` comment ends the line.
    static func words(_ text: Substring) -> [[String]] {
        var commands: [[String]] = [], command: [String] = []
        var word = "", inWord = false
        var quote: Character?
        var iterator = text.replacing(/\$\{\{[^}]*\}\}/, with: "EXPR").makeIterator()  // a CI expression: one word
        func endWord() {
            if inWord { command.append(word) }
            word = ""
            inWord = false
        }
        func endCommand() {
            endWord()
            if !command.isEmpty { commands.append(command) }
            command = []
        }
        while let c = iterator.next() {
            if let q = quote {
                if c == q {
                    quote = nil
                } else if c == "\\", q == "\"", let next = iterator.next() {
                    word.append(next)
                } else {
                    word.append(c)
                }
                continue
            }
            switch c {
            case "'", "\"":
                quote = c
                inWord = true
            case "\\":
                if let next = iterator.next() { word.append(next) }
                inWord = true
            case " ", "\t":
                endWord()
            case "#" where !inWord:
                endCommand()
                return commands
            case "&", "|", ";":
                endCommand()
            case ">", "<":
                // A redirection (`2>&1`, `>> out`, `<in`): its descriptor and its target are not arguments.
                if inWord, word.allSatisfy(\.isNumber) { word = ""; inWord = false }
                endWord()
                var next = iterator.next()
                while let n = next, n == ">" || n == "&" || n == "<" { next = iterator.next() }
                while let n = next, n == " " { next = iterator.next() }
                while let n = next, n != " ", n != ";", n != "|" { next = iterator.next() }
                if next == ";" || next == "|" { endCommand() }
            default:
                word.append(c)
                inWord = true
            }
        }
        endCommand()
        return commands
    }
}
