#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import LaunchCore

/// `make bench-gate`'s program cell: the instruction gate for a program that is not the built-in app,
/// trial by trial as a CI job runs it (`exec --metric instructions --output base.json`, the same for
/// the head, then `check --result head.json --baseline base.json --format json`).
///
/// The program is the C test program `Tests/LaunchprofClientTests/Programs/instruction_gate.c`
/// (two phases through `include/launchprof.h`), built twice: the baseline, and a candidate whose
/// `computing` phase does `percent`% more work. Both sides are measured under one `--name`, as one
/// program at two commits. Two trials run at once: counts do not depend on load.
struct ProgramGateBenchmark: Sendable {
    var noChangeTrials: Int
    var changeTrials: Int
    /// The candidate's extra work in `computing`, in percent.
    var percent = 2
    /// The launchprof measured: `LAUNCHPROF` in the environment, or the release build.
    let executable = benchedLaunchprof

    struct Trial: Sendable {
        var exit: Int32
        var regressions: [String]
        var change: Double?
    }

    /// Builds the test program with `SLOWER_PERCENT=slower` into `directory`.
    func build(slower: Int, in directory: String) -> String? {
        let root = FileIO.parentDirectory(of: FileIO.parentDirectory(of: FileIO.parentDirectory(of: #filePath)))
        let output = "\(directory)/gate-\(slower)"
        let command =
            "cc -O2 -pthread -I'\(root)/include' -DSLOWER_PERCENT=\(slower) -o '\(output)' '\(root)/Tests/LaunchprofClientTests/Programs/instruction_gate.c'"
        return system(command) == 0 ? output : nil
    }

    /// One trial: both builds measured now, then the check; its exit status and JSON report.
    func trial(base: String, candidate: String, directory: String, index: Int) -> Trial {
        let prefix = "\(directory)/trial-\(index)"
        defer { for suffix in ["base.json", "head.json", "out"] { unlink("\(prefix)-\(suffix)") } }
        let measure = { (program: String, output: String) -> Int32 in
            system("\(executable) exec --quiet --metric instructions --name gate --output '\(output)' -- '\(program)' >/dev/null 2>&1")
        }
        guard measure(base, "\(prefix)-base.json") == 0, measure(candidate, "\(prefix)-head.json") == 0 else {
            return Trial(exit: 2, regressions: [], change: nil)
        }
        let status = system(
            "\(executable) check --quiet --result '\(prefix)-head.json' --baseline '\(prefix)-base.json' --format json > '\(prefix)-out' 2>/dev/null")
        let exit = (status >> 8) & 0xff
        guard let data = FileManager.default.contents(atPath: "\(prefix)-out"),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return Trial(exit: exit, regressions: [], change: nil) }
        let rows = json["rows"] as? [[String: Any]] ?? []
        let computing = rows.first { $0["path"] as? String == "computing" }
        return Trial(exit: exit, regressions: json["regressions"] as? [String] ?? [], change: computing?["changePercent"] as? Double)
    }

    func run() throws {
        guard FileIO.exists(executable) else {
            print("build first: swift build -c release --product launchprof")
            return
        }
        let tag = "gate (program instructions)"
        let directory = try FileIO.makeTemporaryDirectory(in: FileIO.temporaryDirectory, prefix: "launchprof-program-gate-")
        defer { FileIO.removeTree(directory) }
        guard let base = build(slower: 0, in: directory), let slower = build(slower: percent, in: directory) else {
            print("\(tag): skipped: the C test program does not compile (cc)")
            return
        }
        print(
            "\(tag): a C program with two phases (include/launchprof.h), exec --metric instructions of both builds, then check --result --baseline (threshold 1%); host \(HostInfo.current().cpuModel), \(HostInfo.current().cores) cores"
        )
        for (label, candidate, trials) in [("no change", base, noChangeTrials), ("\(percent)% more work in one phase", slower, changeTrials)] {
            guard trials > 0 else { continue }
            let results = UnsafeMutableBufferPointer<Trial>.allocate(capacity: trials)
            defer { results.deallocate() }
            nonisolated(unsafe) let slots = results
            let start = MonotonicClock.nanoseconds()
            DispatchQueue.concurrentPerform(iterations: 2) { worker in
                for i in stride(from: worker, to: trials, by: 2) {
                    (slots.baseAddress! + i).initialize(to: trial(base: base, candidate: candidate, directory: directory, index: i))
                }
            }
            let seconds = LaunchClock.seconds(MonotonicClock.nanoseconds() - start)
            let all = Array(results)
            let failed = all.filter { $0.exit == 1 }.count
            let named = all.filter { $0.regressions == ["computing"] || $0.regressions.sorted() == ["Total launch instructions", "computing"] }.count
            let errors = all.filter { $0.exit != 0 && $0.exit != 1 }.count
            let changes = all.compactMap(\.change).sorted()
            let median = changes.isEmpty ? "-" : "\(format(changes[changes.count / 2]))%"
            let verb = candidate == base ? "wrongly failed" : "detected"
            print(
                "\(tag): \(label): \(verb) \(failed)/\(trials) = \(format(Double(failed) / Double(trials) * 100))% (only 'computing' named in \(named); errors \(errors); its median change \(median)) [\(Int(seconds)) s]"
            )
            fflush(nil)
        }
    }
}
