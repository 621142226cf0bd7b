#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// Turns symbol names into what a person reads: Swift names through the toolchain's demangler
/// (`swift demangle --simplified --compact`: `Canvas.fillRoundedRect(_:radius:paint:)`), C++ names
/// (`_Z…`, which Callgrind usually demangles itself) through `c++filt`, C names as they are. All the
/// names of a language go through one process. A name that cannot be demangled (no tool, a tool
/// that fails, an answer of the wrong length) is kept as it is.
public struct Demangler: Sendable {
    /// The command for Swift names (`nil`: none on this machine).
    public var swift: [String]?
    /// The command for C++ names.
    public var cplusplus: [String]?
    /// The most bytes of a demangler's answer read (its names are at most a few times the input's).
    public static let outputLimit = 64 << 20

    public init(swift: [String]?, cplusplus: [String]?) {
        self.swift = swift
        self.cplusplus = cplusplus
    }

    /// The demanglers found on `PATH`: `swift-demangle`, else `swift demangle`; `c++filt`.
    public static func onPath() -> Demangler {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        func find(_ name: String) -> String? {
            path.split(separator: ":").lazy.map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
        }
        let swift = find("swift-demangle").map { [$0] } ?? find("swift").map { [$0, "demangle"] }
        return Demangler(swift: swift.map { $0 + ["--simplified", "--compact"] }, cplusplus: find("c++filt").map { [$0] })
    }

    /// Whether `name` is a mangled Swift symbol.
    public static func isSwift(_ name: String) -> Bool {
        name.hasPrefix("$s") || name.hasPrefix("_$s") || name.hasPrefix("$S") || name.hasPrefix("_T0")
    }

    /// Whether `name` is a mangled C++ symbol.
    public static func isCPlusPlus(_ name: String) -> Bool { name.hasPrefix("_Z") }

    /// Each of `names` demangled, by name.
    public func demangle(_ names: some Sequence<String>) -> [String: String] {
        var swiftNames: [String] = [], cppNames: [String] = []
        for name in Set(names) where !name.contains("\n") {
            if Self.isSwift(name) { swiftNames.append(name) } else if Self.isCPlusPlus(name) { cppNames.append(name) }
        }
        var out: [String: String] = [:]
        for (command, batch) in [(swift, swiftNames.sorted()), (cplusplus, cppNames.sorted())] {
            guard let command, !batch.isEmpty, let answer = Self.run(command, input: batch) else { continue }
            for (name, readable) in zip(batch, answer) where !readable.isEmpty { out[name] = readable }
        }
        return out
    }

    /// `command` run with `input` on its standard input, one name a line; its answer's lines, or
    /// `nil` when it fails or answers with another number of lines.
    static func run(_ command: [String], input: [String]) -> [String]? {
        guard let directory = try? FileIO.makeTemporaryDirectory(in: FileIO.temporaryDirectory, prefix: "launchprof-demangle-") else { return nil }
        defer { FileIO.removeTemporaryDirectory(directory) }
        let inputFile = "\(directory)/names", outputFile = "\(directory)/demangled"
        do { try FileIO.writeAtomically(input.joined(separator: "\n") + "\n", to: inputFile) } catch { return nil }
        guard ToolProcess.run(command[0], Array(command.dropFirst()), stdin: inputFile, stdout: outputFile) == 0,
            let bytes = try? FileIO.read(outputFile, limit: outputLimit)
        else { return nil }
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines.count == input.count ? lines : nil
    }
}
