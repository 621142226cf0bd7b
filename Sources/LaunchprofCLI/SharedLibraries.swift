import Foundation
import LaunchCore
import LaunchRunner

/// The files a program's launch reads from disk, for `launchprof exec --cold`: the executable, the
/// interpreter of a `#!` script (found on `PATH` through `/usr/bin/env`), and the shared libraries
/// the dynamic loader resolves for each (`ldd`, which asks the loader itself).
enum SharedLibraries {
    /// Every file mapped at launch, the executable first, without duplicates.
    static func files(of executable: String) -> [String] {
        var files: [String] = []
        var next: [String] = [executable]
        // An interpreter may itself be a script: a few levels at most.
        for _ in 0..<4 {
            guard let path = next.popLast() else { break }
            guard !files.contains(path) else { continue }
            files.append(path)
            if let interpreter = interpreter(of: path) {
                next.append(interpreter)
            } else {
                for library in loaded(by: path) where !files.contains(library) { files.append(library) }
            }
        }
        return files
    }

    /// The interpreter a `#!` line names (`/usr/bin/env python3` → python3 on `PATH`), or `nil`.
    static func interpreter(of path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 256), head.starts(with: Array("#!".utf8)) else { return nil }
        let line = String(decoding: head.dropFirst(2).prefix { $0 != 0x0A }, as: UTF8.self)
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let program = words.first else { return nil }
        if program.hasSuffix("/env"), let name = words.dropFirst().first(where: { !$0.hasPrefix("-") }) {
            return LaunchRunner.ExecutableSearch.find(name)
        }
        return program
    }

    /// The shared libraries (and the loader) `ldd` lists for an ELF executable; none when it cannot say.
    static func loaded(by path: String) -> [String] {
        guard let output = CommandOutput.run(["/usr/bin/ldd", path]) else { return [] }
        return parse(String(decoding: output, as: UTF8.self))
    }

    /// The absolute paths in `ldd` output: `libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x…)` and
    /// `/lib64/ld-linux-x86-64.so.2 (0x…)`; `linux-vdso.so.1 (0x…)` has no file.
    static func parse(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let target = line.range(of: "=> ").map { line[$0.upperBound...] } ?? line.drop { $0 == " " || $0 == "\t" }
            let path = target.prefix { $0 != " " && $0 != "(" }
            return path.hasPrefix("/") ? String(path) : nil
        }
    }
}
