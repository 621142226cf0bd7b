#if canImport(Glibc)
import LaunchprofTestSupport
import Glibc
#endif
import Testing
import LaunchCore
@testable import LaunchTraces

/// Clocks, errors and phase lookups shared by the trace tests.
enum TraceTest {
    /// The spawn: monotonic 1,000 s after boot, wall clock 2027-01-15T08:00:00Z.
    static let monotonicSpawn: UInt64 = 1_000_000_000_000
    static let realtimeSpawn = 1_800_000_000.0

    /// A run of `seconds` from that spawn.
    static func clock(seconds: Double = 1, realtime: Double = realtimeSpawn) -> SpawnClock {
        SpawnClock(
            monotonicNanoseconds: monotonicSpawn, realtimeSeconds: realtime,
            endMonotonicNanoseconds: monotonicSpawn + UInt64(seconds * 1e9))
    }

    /// The parts of a ``TraceError/malformed(source:line:column:event:reason:)``, and its message.
    struct Failure: Equatable {
        var source: String
        var line: Int?
        var column: Int?
        var event: Int?
        var reason: String
        var description: String
    }

    /// The trace error `body` throws, or `nil` (recorded as an issue) when it throws none or another error.
    static func error(_ body: () throws(TraceError) -> TraceReading, sourceLocation: SourceLocation = #_sourceLocation) -> Failure? {
        do {
            let reading = try body()
            Issue.record("expected an error, got \(reading.phases.count) phases", sourceLocation: sourceLocation)
            return nil
        } catch {
            guard case .malformed(let source, let line, let column, let event, let reason) = error else {
                Issue.record("expected a trace error, got \(error)", sourceLocation: sourceLocation)
                return nil
            }
            return Failure(source: source, line: line, column: column, event: event, reason: reason, description: error.description)
        }
    }

    /// The phase named `name` (the first, if several).
    static func phase(_ name: String, in reading: TraceReading, sourceLocation: SourceLocation = #_sourceLocation) throws -> PhaseRecord {
        try #require(reading.phases.first { $0.name == name }, "no phase \(name) in \(reading.phases.map(\.name))", sourceLocation: sourceLocation)
    }

    /// The index of the phase named `name`.
    static func index(_ name: String, in reading: TraceReading) -> Int? {
        reading.phases.firstIndex { $0.name == name }
    }

    /// Every phase lies within the run, each child within its parent, parents first, depths consistent.
    static func expectWellFormed(_ reading: TraceReading, duration: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        for (i, phase) in reading.phases.enumerated() {
            #expect(phase.start >= 0 && phase.duration >= 0 && phase.end <= duration + 1e-9, "\(phase.name) outside the run", sourceLocation: sourceLocation)
            if let parent = phase.parent {
                #expect(parent < i, "\(phase.name)'s parent comes after it", sourceLocation: sourceLocation)
                let outer = reading.phases[parent]
                #expect(outer.thread == phase.thread && outer.depth + 1 == phase.depth, sourceLocation: sourceLocation)
                #expect(
                    phase.start >= outer.start - 1e-12 && phase.end <= outer.end + 1e-12, "\(phase.name) outside \(outer.name)", sourceLocation: sourceLocation)
            } else {
                #expect(phase.depth == 0, sourceLocation: sourceLocation)
            }
        }
    }

    /// A new directory in the test process's own (``TemporaryDirectory``).
    static func temporaryDirectory() throws -> String {
        try TemporaryDirectory.make(prefix: "traces")
    }

    /// `seconds` compared with a tolerance of a nanosecond.
    static func close(_ a: Double, _ b: Double, within tolerance: Double = 1e-9) -> Bool {
        abs(a - b) <= tolerance
    }
}
