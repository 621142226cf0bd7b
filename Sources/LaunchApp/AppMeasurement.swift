#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// The variables the launcher sets for the built-in app (``AppInterface``), as read at its start.
struct AppEnvironment: Equatable {
    /// `LAUNCHPROF_METRIC`: `instructions` when the run is under Callgrind (`--metric instructions`).
    var metric: String?
    /// `LAUNCHPROF_COUNTERS`: `0` turns the phases' system counters off.
    var counters: String?
    /// `LAUNCHPROF_EMULATION`: the device tier's factors (``DeviceEmulation/encoded``); empty or unset: none.
    var emulation: String?

    /// This process's environment.
    static func current() -> AppEnvironment {
        AppEnvironment(
            metric: variable(AppInterface.metricVariable), counters: variable(AppInterface.countersVariable),
            emulation: variable(AppInterface.emulationVariable))
    }

    private static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

/// Whether this process can count instructions: built with valgrind/callgrind.h, and running under Valgrind.
struct ValgrindPresence: Equatable {
    var isCompiled: Bool
    var isRunning: Bool

    /// This build and process (``CallgrindBoundaries``).
    static var current: ValgrindPresence {
        ValgrindPresence(isCompiled: CallgrindBoundaries.isCompiled, isRunning: CallgrindBoundaries.isRunningOnValgrind)
    }
}

/// How the app's phase recorder measures a run, from the launcher's variables: instructions
/// (Callgrind dumps at each phase boundary) or the wall clock with memory samples and, unless turned
/// off, system counters; and the device tier's emulation, if any.
struct AppMeasurement: Equatable {
    enum Recording: Equatable {
        /// Callgrind dumps at phase boundaries, nothing else (memory samples would count `/proc`
        /// reads as the phases' work; Valgrind's memory is not the app's anyway).
        case instructions
        /// Top-level memory samples, and the phases' system counters when `counters` (docs/counters.md).
        case wallClock(counters: Bool)
    }

    var recording: Recording
    var emulation: DeviceEmulation?

    init(recording: Recording, emulation: DeviceEmulation? = nil) {
        self.recording = recording
        self.emulation = emulation
    }

    /// Refused: instructions asked for where they cannot be counted, a malformed emulation.
    init(environment: AppEnvironment, valgrind: ValgrindPresence) throws(AppRefusal) {
        if environment.metric == Metric.instructions.rawValue {
            guard valgrind.isCompiled else {
                throw AppRefusal(
                    message: "this launchprof was built without valgrind/callgrind.h and cannot count instructions: install valgrind (make setup), then rebuild"
                )
            }
            guard valgrind.isRunning else {
                throw AppRefusal(message: "\(AppInterface.metricVariable)=instructions, but the app is not running under Valgrind")
            }
            recording = .instructions
        } else {
            recording = .wallClock(counters: environment.counters != "0")
        }
        if let text = environment.emulation, !text.isEmpty {
            guard let emulation = DeviceEmulation(encoded: text) else {
                throw AppRefusal(message: "malformed \(AppInterface.emulationVariable) '\(text)'")
            }
            self.emulation = emulation
        }
    }

    /// Sets `recorder` up to measure this way.
    func configure(_ recorder: PhaseRecorder) {
        switch recording {
        case .instructions:
            recorder.countsInstructions = true
        case .wallClock(let counters):
            recorder.memorySamplingDepth = 1
            recorder.recordsCounters = counters
        }
        if let emulation { recorder.emulation = emulation }
    }
}
