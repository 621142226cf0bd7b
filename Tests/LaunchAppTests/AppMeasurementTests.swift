import LaunchCore
import Testing

@testable import LaunchApp

/// How the app measures, from the launcher's variables (`LAUNCHPROF_METRIC`, `LAUNCHPROF_COUNTERS`,
/// `LAUNCHPROF_EMULATION`), and what it refuses.
@Suite struct AppMeasurementTests {
    static let noValgrind = ValgrindPresence(isCompiled: true, isRunning: false)
    static let underValgrind = ValgrindPresence(isCompiled: true, isRunning: true)

    @Test func noVariablesMeanTheWallClockWithCountersAndNoEmulation() throws {
        let measurement = try AppMeasurement(environment: AppEnvironment(), valgrind: Self.noValgrind)
        #expect(measurement.recording == .wallClock(counters: true))
        #expect(measurement.emulation == nil)
    }

    @Test(arguments: [("0", false), ("1", true), ("", true), ("no", true)])
    func onlyZeroTurnsTheCountersOff(value: String, counters: Bool) throws {
        let measurement = try AppMeasurement(environment: AppEnvironment(counters: value), valgrind: Self.noValgrind)
        #expect(measurement.recording == .wallClock(counters: counters))
    }

    @Test func instructionsUnderValgrindAreCountedAndTheCountersIgnored() throws {
        let measurement = try AppMeasurement(
            environment: AppEnvironment(metric: "instructions", counters: "1"), valgrind: Self.underValgrind)
        #expect(measurement.recording == .instructions)
    }

    @Test func anotherMetricIsTheWallClock() throws {
        let measurement = try AppMeasurement(environment: AppEnvironment(metric: "wall"), valgrind: Self.noValgrind)
        #expect(measurement.recording == .wallClock(counters: true))
    }

    @Test func instructionsOutsideValgrindAreRefused() {
        #expect(throws: AppRefusal(message: "LAUNCHPROF_METRIC=instructions, but the app is not running under Valgrind")) {
            try AppMeasurement(environment: AppEnvironment(metric: "instructions"), valgrind: Self.noValgrind)
        }
    }

    @Test func instructionsWithoutCallgrindsHeaderAreRefusedSayingHowToGetIt() throws {
        let refusal = try #require(throws: AppRefusal.self) {
            try AppMeasurement(
                environment: AppEnvironment(metric: "instructions"), valgrind: ValgrindPresence(isCompiled: false, isRunning: true))
        }
        #expect(refusal.message.hasPrefix("this launchprof was built without valgrind/callgrind.h and cannot count instructions"))
        #expect(refusal.message.contains("make setup"))
    }

    @Test func theEmulationIsTheTiersFactors() throws {
        let tier = DeviceEmulation(factors: [.cpu: 4, .io: 2.5])
        let measurement = try AppMeasurement(environment: AppEnvironment(emulation: tier.encoded), valgrind: Self.noValgrind)
        #expect(measurement.emulation == tier)
        #expect(measurement.emulation?.factor(for: .cpu) == 4)
    }

    @Test func anEmptyEmulationIsNone() throws {
        #expect(try AppMeasurement(environment: AppEnvironment(emulation: ""), valgrind: Self.noValgrind).emulation == nil)
    }

    /// A factor below 1 would make the device faster than the host; an unknown kind or a missing
    /// value is no tier the CLI writes.
    @Test(arguments: ["cpu=0.5", "cpu", "gpu=2", "cpu=nan", "cpu=inf", "cpu=2,io"])
    func aMalformedEmulationIsRefusedQuoted(text: String) {
        #expect(throws: AppRefusal(message: "malformed LAUNCHPROF_EMULATION '\(text)'")) {
            try AppMeasurement(environment: AppEnvironment(emulation: text), valgrind: Self.noValgrind)
        }
    }

    @Test func theWallClockSamplesMemoryAtTheTopLevelAndRecordsCounters() throws {
        let recorder = PhaseRecorder(clock: .startNow())
        let tier = DeviceEmulation(factors: [.cpu: 3])
        AppMeasurement(recording: .wallClock(counters: true), emulation: tier).configure(recorder)
        #expect(recorder.memorySamplingDepth == 1)
        #expect(recorder.recordsCounters)
        #expect(!recorder.countsInstructions)
        #expect(recorder.emulation == tier)
    }

    @Test func countersOffAreNotRecorded() {
        let recorder = PhaseRecorder(clock: .startNow())
        AppMeasurement(recording: .wallClock(counters: false)).configure(recorder)
        #expect(!recorder.recordsCounters)
        #expect(recorder.memorySamplingDepth == 1)
        #expect(recorder.emulation == nil)
    }

    @Test func instructionsSampleNoMemory() {
        let recorder = PhaseRecorder(clock: .startNow())
        AppMeasurement(recording: .instructions).configure(recorder)
        #expect(recorder.countsInstructions)
        #expect(recorder.memorySamplingDepth == nil)
        #expect(!recorder.recordsCounters)
    }
}
