import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import LaunchCore

/// Every command that writes a file, killed with SIGKILL at random moments of its life (50 kills in
/// all): afterwards the previous file is intact or the new one complete, never partial, and no
/// temporary file is left in the directory.
@Suite(.serialized) struct KillTests {
    struct Writer {
        var name: String
        /// The command, writing into `directory`.
        var arguments: (_ directory: String) -> [String]
        /// Whether the written file is complete (parses as its format).
        var complete: (Data) -> Bool
    }

    static func isJSON(_ data: Data) -> Bool { (try? JSONSerialization.jsonObject(with: data)) != nil }
    static func isXML(_ data: Data) -> Bool { XMLParser(data: data).parse() }

    /// Starts the command and kills it with SIGKILL after `delay` seconds (or lets it finish first).
    func runAndKill(_ arguments: [String], after delay: Double) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: CLI.packageRoot)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = Date()
        try process.run()
        if delay > 0 { usleep(UInt32(delay * 1_000_000)) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return Date().timeIntervalSince(start)
    }

    @Test func killedWritersLeaveTheOldFileOrTheNewOneAndNoTemporary() throws {
        let manifest = try TestManifest.make()
        let result = CLI.temporaryPath("kill-source.json")
        let made = try CLI.run(["run", "--runs", "2", "--warmup", "0", "--quiet", "--manifest", manifest, "--output", result])
        try #require(made.status == 0, "\(made.stderr)")
        let writers = [
            Writer(
                name: "run --output",
                arguments: { ["run", "--runs", "1", "--warmup", "0", "--quiet", "--manifest", manifest, "--output", $0 + "/result.json"] },
                complete: Self.isJSON),
            Writer(
                name: "record", arguments: { ["record", "--runs", "1", "--warmup", "0", "--quiet", "--manifest", manifest, "--store", $0] },
                complete: Self.isJSON),
            Writer(
                name: "report --output (svg)", arguments: { ["report", result, "--format", "svg", "--output", $0 + "/timeline.svg"] },
                complete: Self.isXML),
            Writer(
                name: "report --output (chrome-trace)", arguments: { ["report", result, "--format", "chrome-trace", "--output", $0 + "/trace.json"] },
                complete: Self.isJSON),
            Writer(
                name: "check --junit", arguments: { ["check", "--result", result, "--baseline", result, "--junit", $0 + "/junit.xml"] },
                complete: Self.isXML)
        ]
        let killsPerWriter = 10  // 50 in all
        for writer in writers {
            let directory = CLI.temporaryPath("kill")
            try FileIO.createDirectories(directory)
            // A first, complete run gives the previous file and how long the command lives.
            let first = try CLI.run(writer.arguments(directory))
            try #require(first.status == 0, "\(writer.name): \(first.stderr)")
            let files = try FileManager.default.contentsOfDirectory(atPath: directory)
            try #require(files.count == 1, "\(writer.name) wrote \(files)")
            let path = directory + "/" + files[0]
            let previous = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(writer.complete(previous), "\(writer.name): the first output does not parse")
            let started = Date()
            _ = try CLI.run(writer.arguments(directory))
            let lifetime = max(0.02, Date().timeIntervalSince(started))
            for kill in 0..<killsPerWriter {
                // Spread over the whole life: from at once to a little past the usual end.
                let delay = lifetime * 1.1 * (Double(kill) + Double.random(in: 0..<1)) / Double(killsPerWriter)
                _ = try runAndKill(writer.arguments(directory), after: delay)
                let now = try FileManager.default.contentsOfDirectory(atPath: directory)
                // A kill in the instant between naming the finished temporary file and renaming it
                // leaves it, complete; the next write removes it. Anything else left is a failure.
                let leftovers = now.filter { !files.contains($0) }
                #expect(Set(now).isSuperset(of: files) && leftovers.count <= 1, "\(writer.name) killed after \(delay) s left \(now)")
                for leftover in leftovers {
                    let bytes = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + leftover))
                    #expect(leftover.hasSuffix(".tmp") && writer.complete(bytes), "\(writer.name) killed after \(delay) s left \(leftover)")
                }
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                #expect(data == previous || writer.complete(data), "\(writer.name) killed after \(delay) s left a partial file")
            }
            let last = try CLI.run(writer.arguments(directory))
            #expect(last.status == 0)
            let after = try FileManager.default.contentsOfDirectory(atPath: directory)
            #expect(after == files, "\(writer.name): a leftover was not removed by the next write")
        }
    }
}
