import Testing
import LaunchCore

/// The verbs are the one place the writer and the parser share: what one writes the other reads.
@Suite struct ProtocolVerbTests {
    @Test func everyLineTheWriterSendsHasAVerbTheParserKnows() throws {
        let recorder = PhaseRecorder(clock: .startNow())
        recorder.phase("outer\twith a tab", kind: .io) { recorder.phase("inner\\name") {} }
        recorder.mark("interactive")
        recorder.count("cache hits", 3)
        recorder.recordingAfterLaunch = true
        recorder.phase("after") {}
        let lines =
            ProtocolWriter.lines(mainReading: recorder.clock.originNanoseconds, recorders: [recorder], deferred: ["lazy\nstage"])
            + [
                ProtocolWriter.progress("drawing"), ProtocolWriter.tap(shownAt: MonotonicClock.nanoseconds(), key: "7"),
                ProtocolWriter.tapLost(key: "+"), ProtocolVerb.clock.line("4.25")
            ]
        let verbs = Set(lines.map { ProtocolVerb(rawValue: String(ProtocolVerb.split(Substring($0)).verb)) })
        #expect(!verbs.contains(nil))
        #expect(verbs.isSuperset(of: [.greeting, .main, .begin, .end, .mark, .count, .deferred, .launched, .peak, .done, .progress, .tap, .tapLost, .clock]))
        var parser = ProtocolParser(spawnReading: recorder.clock.originNanoseconds)
        // `done` ends the run, so the tap lines go before it.
        let ordered = lines.filter { !$0.hasPrefix("done ") } + lines.filter { $0.hasPrefix("done ") }
        for line in ordered { try parser.consume(Substring(line)) }
        let run = parser.run(index: 1, pid: nil)
        #expect(run.phases.map(\.name).contains("inner\\name"))
        #expect(run.phases.map(\.name).contains("outer\twith a tab"))
        #expect(run.deferred == ["lazy\nstage"])
        #expect(parser.tapShownReadings.count == 1 && parser.tapsLost == 1)
    }

    @Test func theProgressStageIsReadThroughTheVerbAndUnescaped() {
        #expect(ProtocolVerb.progressStage(in: Substring(ProtocolWriter.progress("loading\nthemes"))) == "loading\nthemes")
        #expect(ProtocolVerb.progressStage(in: "x-progressive drawing") == nil)
        #expect(ProtocolVerb.progressStage(in: "begin 1 0 - x-progress") == nil)
    }

    @Test func onlyPhaseMarkCounterAndDeferredLinesAddRecords() {
        #expect(ProtocolVerb.allCases.filter(\.addsRecord) == [.begin, .mark, .count, .deferred])
    }

    @Test func theParsersListOfVerbsIsEveryVerbButTheGreetingAndExtensions() {
        let extensions = ProtocolVerb.allCases.filter { $0.rawValue.hasPrefix(ProtocolVerb.extensionPrefix) }
        #expect(Set(extensions) == [.progress, .clock])
        #expect(Set(ProtocolVerb.recordVerbs) == Set(ProtocolVerb.allCases).subtracting([.greeting]).subtracting(extensions))
    }

    @Test func controlCommandsRoundTripAndUnknownLinesAreRefused() {
        for command in [ControlCommand.tap("7"), .tap(""), .background, .foreground, .quit] {
            #expect(ControlCommand(line: Substring(command.line)) == command)
        }
        #expect(ControlCommand(line: "sleep") == nil)
        #expect(ControlCommand(line: "tap") == nil)
        #expect(ControlCommand(line: "Background") == nil)
    }
}
