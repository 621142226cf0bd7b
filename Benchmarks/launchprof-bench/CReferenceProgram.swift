import Foundation
import LaunchCore

/// A C reference program a benchmark writes to a temporary directory and compiles itself with
/// `cc -O2` and a pkg-config library's flags, so the reference is plain C calling the library, with
/// nothing of launchprof in between. Its standard output is read back as text. Its directory is
/// removed when the benchmark is done with it.
final class CReferenceProgram {
    /// The compiled program.
    let executable: String
    private let directory: String

    /// Writes `source` as `name.c` to a new temporary directory and compiles it against `packages`
    /// (pkg-config names). `nil`, with the compiler's complaint printed, when it cannot be built.
    init?(name: String, source: String, packages: [String]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("launchprof-\(name)-\(getpid())").path
        self.directory = directory
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try FileIO.writeAtomically(source, to: "\(directory)/\(name).c")
        } catch {
            print("\(name): cannot write the C reference: \(error)")
            FileIO.removeTree(directory)
            return nil
        }
        executable = "\(directory)/\(name)"
        let flags = packages.joined(separator: " ")
        let command = "cc -O2 -o '\(executable)' '\(directory)/\(name).c' $(pkg-config --cflags --libs \(flags)) 2>&1"
        guard Self.shell(command)?.status == 0 else {
            print("\(name): cannot compile the C reference: \(Self.shell(command)?.output ?? "no shell")")
            FileIO.removeTree(directory)
            return nil
        }
    }

    deinit { FileIO.removeTree(directory) }

    /// Runs the program with `arguments`; its standard output, or `nil` when it failed.
    func run(_ arguments: [String]) -> String? {
        Self.run([executable] + arguments)
    }

    /// Runs `command` (an executable and its arguments); its standard output, or `nil` when it failed.
    private static func run(_ command: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The medians of `rounds` alternated batches, in nanoseconds per operation, of this program and
    /// of `app` (an executable and its first arguments) run the same way: both are given `input` and
    /// the batch size and print their nanoseconds per operation first. Each side is a fresh process
    /// that runs its operation once untimed and then `batch` times, so neither finds a heap or caches
    /// the other left behind. `nil` when either fails.
    func alternated(rounds: Int, batch: Int, input: String, against app: [String]) -> (app: Double, reference: Double)? {
        var appSamples: [Double] = [], reference: [Double] = []
        for _ in 0..<rounds {
            guard let ns = Self.leadingNumber(run([input, String(batch)])), let appNs = Self.leadingNumber(Self.run(app + [input, String(batch)]))
            else { return nil }
            reference.append(ns)
            appSamples.append(appNs)
        }
        return (medianOf(appSamples), medianOf(reference))
    }

    /// The number an output begins with (the programs print their nanoseconds per operation first).
    private static func leadingNumber(_ output: String?) -> Double? {
        output.flatMap { Double($0.split(separator: " ").first ?? "") }
    }

    private static func shell(_ command: String) -> (status: Int32, output: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// The middle value of `values` (the upper one of an even count).
func medianOf(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
}

/// This machine's load averages (1, 5 and 15 minutes), for the benchmark's output.
func machineLoad() -> String {
    ((try? FileIO.readText("/proc/loadavg")) ?? "").split(separator: " ").prefix(3).joined(separator: " ")
}
