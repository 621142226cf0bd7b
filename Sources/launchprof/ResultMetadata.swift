import Foundation
import LaunchCore

/// The parts of a result that describe where and when it was made: date, host, git state.
/// Gathered after the launch is measured, never inside it.
enum ResultMetadata {
    /// Now, as ISO 8601 with the time zone offset.
    static func date() -> String {
        Date().ISO8601Format()
    }

    /// The git commit, branch and dirty flag of the current directory, or `nil` outside a work tree.
    static func git() -> GitInfo? {
        guard let commit = run(["git", "rev-parse", "HEAD"]) else { return nil }
        let branch = run(["git", "rev-parse", "--abbrev-ref", "HEAD"]).flatMap { $0 == "HEAD" ? nil : $0 }
        let status = run(["git", "status", "--porcelain", "--untracked-files=no"]) ?? ""
        return GitInfo(commit: commit, branch: branch, dirty: !status.isEmpty)
    }

    /// The full commit a git revision names (`HEAD~1`, `main`, a short hash), or `nil`.
    static func resolveRevision(_ revision: String) -> String? {
        run(["git", "rev-parse", "--verify", "--quiet", "\(revision)^{commit}"])
    }

    /// Runs a command and returns its trimmed standard output, or `nil` when it fails.
    private static func run(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
