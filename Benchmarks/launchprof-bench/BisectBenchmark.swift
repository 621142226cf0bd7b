#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LaunchBisect
import LaunchCore

/// Issue 30's bisect goal: a planted culprit in a 64-commit range (the good commit, 62 between, the
/// bad one) found with at most 7 measurements, instructions. A temporary git repository of a small C
/// program whose loop grows from the culprit on; `launchprof bisect --metric instructions --build 'cc …'
/// -- ./prog` per trial, the culprit at a few positions (the first after good, the middle, the bad end,
/// and others); and the search itself over every position with a planted verdict (no measuring).
struct BisectBenchmark {
    /// The launchprof measured: `LAUNCHPROF` in the environment, or the release build.
    let executable = benchedLaunchprof
    var culprits = [1, 17, 32, 45, 63]
    let commitsAfterGood = 63
    let goal = 7

    func report() {
        let tag = "bisect"
        // The search alone, every culprit position: the good commit's measurement plus the steps.
        let search = BisectSearch(count: commitsAfterGood, badKnown: false)
        let worst = (1...commitsAfterGood).map { culprit in search.run { $0 >= culprit ? .bad : .good }.steps.count }.max() ?? 0
        print("\(tag): search over 64 commits, every culprit position: at most \(worst + 1) measurements (goal <= \(goal))")
        guard FileIO.exists(executable), access("/usr/bin/valgrind", X_OK) == 0 || system("command -v valgrind >/dev/null") == 0 else {
            print("\(tag): skipped the measured trials (needs \(executable) and valgrind; swift build -c release --product launchprof)")
            return
        }
        do { try trials(tag) } catch { print("\(tag): failed: \(error)") }
    }

    private func trials(_ tag: String) throws {
        let root = try FileIO.makeTemporaryDirectory(in: FileIO.temporaryDirectory, prefix: "launchprof-bench-bisect-")
        defer { FileIO.removeTemporaryDirectory(root) }
        let absolute = executable.hasPrefix("/") ? executable : FileManager.default.currentDirectoryPath + "/" + executable
        print("\(tag): load average \((try? FileIO.readText("/proc/loadavg", limit: 4096))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?")")
        var found = 0, most = 0
        for culprit in culprits {
            let repository = root + "/repo-\(culprit)"
            let commits = try makeRepository(repository, culprit: culprit)
            let output = root + "/out-\(culprit).json"
            let started = MonotonicClock.nanoseconds()
            let command =
                "cd '\(repository)' && LAUNCHPROF_STORE='\(root)/history-\(culprit).sqlite' '\(absolute)' bisect --good '\(commits[0])' --bad HEAD --metric instructions --build 'cc -O0 -o prog prog.c' --format json -- ./prog > '\(output)' 2>'\(output).err'"
            let status = system(command)
            let seconds = Double(MonotonicClock.nanoseconds() - started) / 1e9
            let json = (try? JSONParser.parse(try FileIO.read(output)))?.object
            let firstBad = json?["firstBad"]?.object?["commit"]?.string
            var measurements = -1
            if case .number(let n)? = json?["measurements"] { measurements = Int(n.value) }
            let right = firstBad == commits[culprit]
            if right { found += 1 }
            most = max(most, measurements)
            print(
                "\(tag): culprit at \(culprit) of 63: \(right ? "found" : "NOT found (exit \(status))"), \(measurements) measurements, \(format(seconds)) s"
            )
        }
        let met = found == culprits.count && most <= goal
        print("\(tag): \(found)/\(culprits.count) culprits found, at most \(most) measurements (goal <= \(goal)): \(met ? "met" : "MISSED")")
    }

    /// A git repository of 64 commits of a small C program; from `culprit` on its loop is longer.
    /// Returns every commit, oldest first.
    private func makeRepository(_ path: String, culprit: Int) throws -> [String] {
        try FileIO.createDirectories(path)
        var script =
            "set -e\ncd '\(path)'\ngit init -q\ngit config user.email b@example.com\ngit config user.name Bench\ngit config commit.gpgsign false\nprintf 'prog\\n' > .gitignore\n"
        for i in 0...commitsAfterGood {
            let loops = i >= culprit ? 5000 : 1000
            script +=
                "printf '%s\\n' 'static volatile unsigned long sink;' 'int main(void) { for (unsigned long i = 0; i < \(loops); i++) sink += i; return 0; }' > prog.c\necho \(i) > notes.txt\ngit add -A\ngit commit -q -m 'commit \(i)'\n"
        }
        let scriptPath = path + ".sh"
        try FileIO.writeAtomically(script + "git rev-list --reverse HEAD > '\(path).commits'\n", to: scriptPath)
        guard system("/bin/sh '\(scriptPath)' >/dev/null 2>&1") == 0 else {
            throw CoreError.system(path: path, action: "make a git repository", reason: "git failed")
        }
        return try FileIO.readText(path + ".commits").split(separator: "\n").map(String.init)
    }
}
