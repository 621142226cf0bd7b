import LaunchCore
import Testing

/// Checks the report of the threaded test programs: `workers` threads each ran `steps` phases
/// `worker <i> step <j>` (cpu), each holding a phase and a mark named by a 3900-byte name, and counted
/// `steps`, under a phase `spawning workers` on the main thread.
enum ThreadedReport {
    static let longName = String(repeating: "long name ", count: 390)

    static func check(_ report: ProtocolReport, workers: Int, steps: Int) throws {
        let phases = report.phases
        #expect(phases.count == 1 + workers * steps * 2)
        #expect(phases.first?.name == "spawning workers" && phases.first?.thread == 0)
        var threadOfWorker: [Int: Int] = [:]
        for phase in phases.dropFirst() where phase.name != longName {
            let words = phase.name.split(separator: " ")
            let worker = try #require(words.count == 4 ? Int(words[1]) : nil, "an unexpected phase '\(phase.name.prefix(40))'")
            #expect(phase.kind == .cpu && phase.depth == 0)
            #expect(threadOfWorker[worker, default: phase.thread] == phase.thread, "worker \(worker) changed thread")
            threadOfWorker[worker] = phase.thread
        }
        #expect(threadOfWorker.count == workers)
        #expect(Set(threadOfWorker.values) == Set(1...workers), "each worker numbered, from 1: \(threadOfWorker)")
        let inner = phases.filter { $0.name == longName }
        #expect(inner.count == workers * steps && inner.allSatisfy { $0.depth == 1 && $0.thread > 0 })
        #expect(report.run.marks.count == workers * steps && report.run.marks.allSatisfy { $0.name == longName })
        #expect(report.run.counters.map(\.name) == ["steps"] && report.run.counters.first?.value == workers * steps)
    }
}
