import Testing
@testable import LaunchPipeline

@Suite struct ManifestLoaderTests {
    func parse(_ json: String) throws(PipelineError) -> Manifest {
        try ManifestLoader.parse(Array(json.utf8), path: "dir/m.json")
    }

    func message(_ json: String) -> String {
        do {
            _ = try parse(json)
            return "no error"
        } catch {
            return error.description
        }
    }

    let stages = #"[{"name": "Init", "run": "init"}, {"name": "themes", "run": "theme"}]"#

    @Test func defaultManifestLoads() throws {
        let m = try ManifestLoader.load(path: Paths.defaultManifest)
        #expect(m.name == "default")
        #expect(m.screen == Screen(width: 320, height: 480, scale: 1))
        #expect(m.orientations == [.portrait])
        #expect(m.launchStages.map(\.run) == [.initialize, .theme, .layout, .images, .draw, .snapshot])
        #expect(m.lazyStages.map(\.name) == ["loading conversions", "loading constants"])
        #expect(m.theme.hasSuffix("Fixtures/default/theme.xml"))
        #expect(m.snapshot?.hasSuffix("Fixtures/default/Loading.png") == true)
        #expect(m.sha256.count == 64)
    }

    @Test func relativePathsResolveAgainstTheManifest() throws {
        let m = try parse(#"{"theme": "t.xml", "assets": "a", "screen": {"width": 1, "height": 1}, "stages": \#(stages)}"#)
        #expect(m.theme == "dir/t.xml")
        #expect(m.assets == "dir/a")
        #expect(m.screen.scale == 1)
        #expect(m.snapshot == nil)
    }

    @Test func errorsNameTheKeyPathAndWhatWasExpected() {
        #expect(message(#"{"screen": {"width": 1, "height": 1}, "stages": \#(stages)}"#) == #"dir/m.json: missing required key "theme""#)
        #expect(message(#"{"theme": "t", "screen": {"width": 1, "height": 1, "scale": 9}, "stages": \#(stages)}"#)
                == "dir/m.json: screen.scale: expected a whole number from 1 to 4, found 9")
        #expect(message(#"{"theme": "t", "screen": {"width": "wide", "height": 1}, "stages": \#(stages)}"#)
                == "dir/m.json: screen.width: expected a whole number, found a string")
        #expect(message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": [{"name": "x", "run": "drw"}]}"#)
                == #"dir/m.json: stages[0].run: expected one of "init", "theme", "layout", "images", "draw", "snapshot", "data", found "drw""#)
        #expect(message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(stages), "strategy": {}}"#)
                .hasPrefix(#"dir/m.json: top level: unknown key "strategy" (expected: assets, name, orientations"#))
        #expect(message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(stages), "orientations": ["upside-down"]}"#)
                == #"dir/m.json: orientations[0]: expected "portrait" or "landscape", found "upside-down""#)
        #expect(message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(stages), "strategies": {"reuseKeyBackgrounds": 1}}"#)
                == "dir/m.json: strategies.reuseKeyBackgrounds: expected true or false, found a number")
    }

    @Test func stagesMustComeAfterWhatTheyNeed() {
        #expect(message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": [{"name": "layouts", "run": "layout"}]}"#)
                == #"dir/m.json: stages[0]: the "layout" stage (layouts) needs a "theme" stage before it"#)
        #expect(message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": [{"name": "d", "run": "data", "lazy": true}]}"#)
                == #"dir/m.json: stages[0]: a "data" stage needs a "file""#)
        #expect(message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": [{"name": "i", "run": "init", "lazy": true}]}"#)
                == #"dir/m.json: stages[0]: only "data" stages can be lazy (the UI needs the others to launch)"#)
    }

    @Test func syntaxErrorsGiveLineAndColumn() {
        #expect(message("{\n  \"theme\": \"t\",\n  \"screen\": {,}\n}") == "dir/m.json: invalid JSON at line 3, column 14")
    }
}
