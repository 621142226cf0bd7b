import LaunchCore
import Testing

@testable import LaunchManifest

/// The loader's errors carry their facts (``ManifestProblem``), not words: these match the cases;
/// ManifestLoaderTests judges the text.
@Suite struct ManifestProblemTests {
    func thrown(_ json: String) -> ManifestError? {
        do {
            _ = try ManifestLoader.parse(Array(json.utf8), path: "m.json")
            return nil
        } catch {
            return error
        }
    }

    let stages = #"[{"name": "i", "run": "init"}, {"name": "t", "run": "theme"}]"#

    @Test func typeAndRangeErrorsSayWhatWasExpectedAndFound() {
        #expect(
            thrown(#"{"theme": "t", "screen": {"width": 1, "height": 1, "scale": 9}, "stages": \#(stages)}"#)
                == .input(file: "m.json", keyPath: "screen.scale", problem: .invalid(.boundedWholeNumber(min: 1, max: 4), found: .wholeNumber(9))))
        #expect(
            thrown(#"{"theme": "t", "screen": {"width": "wide", "height": 1}, "stages": \#(stages)}"#)
                == .input(file: "m.json", keyPath: "screen.width", problem: .invalid(.wholeNumber, found: .kind("a string"))))
        #expect(
            thrown(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": [{"name": "x", "run": "drw"}]}"#)
                == .input(file: "m.json", keyPath: "stages[0].run", problem: .invalid(.stageKind, found: .text("drw"))))
        #expect(
            thrown(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": []}"#)
                == .input(file: "m.json", keyPath: "stages", problem: .invalid(.atLeastOneStage)))
    }

    @Test func keysAndStageRulesNameTheirPlace() {
        #expect(thrown(#"{"screen": {"width": 1, "height": 1}, "stages": \#(stages)}"#) == .input(file: "m.json", keyPath: "", problem: .missingKey("theme")))
        #expect(
            thrown(#"{"theme": "t", "screen": {"width": 1, "height": 1, "dpi": 2}, "stages": \#(stages)}"#)
                == .input(file: "m.json", keyPath: "screen", problem: .unknownKey("dpi", allowed: ["height", "scale", "width"])))
        #expect(
            thrown(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": [{"name": "l", "run": "layout"}]}"#)
                == .input(file: "m.json", keyPath: "stages[0]", problem: .missingPrerequisite(name: "l", kind: .layout, needed: .theme)))
        #expect(
            thrown(#"{"theme": "t", "screen": {"width": 4000, "height": 1, "scale": 4}, "stages": \#(stages)}"#)
                == .input(file: "m.json", keyPath: "screen", problem: .screenTooLarge(Screen(width: 4000, height: 1, scale: 4))))
        #expect(
            thrown(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(stages), "strategies": {"loadingDialog": {}}}"#)
                == .input(file: "m.json", keyPath: "strategies.loadingDialog", problem: .unmet(.dialogNeedsSnapshotFirst)))
    }

    @Test func documentProblemsHaveNoKeyPath() {
        guard case .input("m.json", nil, .invalidJSON(.manifest, .invalidJSON(_, 1, _, _))) = thrown("{,}") else {
            Issue.record("not an invalid-JSON problem: \(String(describing: thrown("{,}")))")
            return
        }
        let deep = "{\"name\": " + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}"
        #expect(thrown(deep) == .input(file: "m.json", keyPath: nil, problem: .tooDeep(.manifest, line: 1, column: 73, limit: 64)))
    }

    @Test func theRendererPlacesTheKeyPathAndKeepsOneLine() {
        #expect(ManifestError.input(file: "f", keyPath: "", problem: .missingKey("k")).description == #"f: missing required key "k""#)
        #expect(ManifestError.input(file: "f", keyPath: "", problem: .notAnObject).description == "f: top level: not a JSON object")
        #expect(ManifestError.input(file: "f", keyPath: "a.b", problem: .missingKey("k")).reason == #"a.b: missing required key "k""#)
        #expect(
            ManifestError.input(file: "f", keyPath: "o[0]", problem: .invalid(.orientation, found: .text("up\nside"))).description
                == #"f: o[0]: expected "portrait" or "landscape", found "up\nside""#)
        #expect(
            ManifestError.input(file: "s.json", keyPath: nil, problem: .tooDeep(.settings, line: 2, column: 3, limit: 64)).description
                == "s.json: line 2, column 3: nested more than 64 levels deep (settings need 2)")
        #expect(
            ManifestError.input(file: "s.json", keyPath: nil, problem: .invalidJSON(.settings, .invalidJSON(offset: 1, line: 1, column: 2, reason: nil)))
                .description == "s.json: not valid JSON at line 1, column 2")
        #expect(ManifestError.unknownStrategy("x").reason == nil)
    }
}
