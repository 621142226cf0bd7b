import Testing
@testable import LaunchManifest

@Suite struct ManifestLoaderTests {
    func parse(_ json: String) throws(ManifestError) -> Manifest {
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
        #expect(m.launchStages.map(\.run) == [.initialize, .theme, .layout, .images, .settings, .draw])
        #expect(m.strategies.snapshotFirst)
        #expect(m.splash?.hasSuffix("Fixtures/default/assets/splash.png") == true)
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

    @Test func theSnapshotIsNotALaunchStageAndSnapshotFirstNeedsWhatItShows() {
        #expect(
            message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": [{"name": "s", "run": "snapshot"}]}"#)
                .hasPrefix(#"dir/m.json: stages[0].run: "snapshot" is not a launch stage any more"#))
        let draw =
            #"[{"name": "i", "run": "init"}, {"name": "t", "run": "theme"}, {"name": "l", "run": "layout"}, {"name": "m", "run": "images"}, {"name": "d", "run": "draw"}]"#
        #expect(
            message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(draw), "strategies": {"snapshotFirst": true}, "splash": "s.png"}"#)
                == #"dir/m.json: strategies.snapshotFirst: the app shows its saved snapshot first, so the manifest needs a "snapshot" path"#)
        #expect(
            message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(draw), "strategies": {"snapshotFirst": true}, "snapshot": "L.png"}"#)
                == #"dir/m.json: strategies.snapshotFirst: a first launch has no snapshot to show, so the manifest needs a "splash" image (an asset)"#)
        #expect(
            message(
                #"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(stages), "strategies": {"snapshotFirst": true}, "snapshot": "L.png", "splash": "s.png"}"#
            )
                == #"dir/m.json: strategies.snapshotFirst: the real UI must be drawn after the snapshot, so the manifest needs a "draw" stage"#)
        #expect(
            message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(stages), "strategies": {"snapshotFirst": "yes"}}"#)
                == "dir/m.json: strategies.snapshotFirst: expected true or false, found a string")
        #expect(
            message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(stages), "splash": ""}"#)
                == "dir/m.json: splash: expected the file name of a PNG in the assets directory")
        #expect(
            message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(stages), "strategies": {"releaseCachesOnBackground": 1}}"#)
                == "dir/m.json: strategies.releaseCachesOnBackground: expected true or false, found a number")
    }

    @Test func loadingDialogValuesAreChecked() {
        let draw =
            #"[{"name": "i", "run": "init"}, {"name": "t", "run": "theme"}, {"name": "l", "run": "layout"}, {"name": "m", "run": "images"}, {"name": "d", "run": "draw"}]"#
        let first = #""snapshot": "L.png", "splash": "s.png""#
        #expect(
            message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(draw), "strategies": {"loadingDialog": {}}}"#)
                == "dir/m.json: strategies.loadingDialog: the dialog is drawn over the saved snapshot, so it needs snapshotFirst")
        #expect(
            message(
                #"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(draw), \#(first), "strategies": {"snapshotFirst": true, "loadingDialog": {"showAfter": -1}}}"#
            )
                == "dir/m.json: strategies.loadingDialog.showAfter: expected seconds from 0 to 60, found -1.0")
        #expect(
            message(
                #"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(draw), \#(first), "strategies": {"snapshotFirst": true, "loadingDialog": {"minMessageSeconds": 1e400}}}"#
            )
            .hasPrefix("dir/m.json: "))
        #expect(
            message(
                #"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(draw), \#(first), "strategies": {"snapshotFirst": true, "loadingDialog": {"spinner": 3}}}"#
            )
            .hasPrefix(#"dir/m.json: strategies.loadingDialog: unknown key "spinner""#))
        #expect(
            message(
                #"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(draw), \#(first), "strategies": {"snapshotFirst": true, "loadingDialog": true}}"#
            )
            .hasPrefix("dir/m.json: strategies.loadingDialog: expected an object"))
    }

    @Test func errorsNameTheKeyPathAndWhatWasExpected() {
        #expect(message(#"{"screen": {"width": 1, "height": 1}, "stages": \#(stages)}"#) == #"dir/m.json: missing required key "theme""#)
        #expect(
            message(#"{"theme": "t", "screen": {"width": 1, "height": 1, "scale": 9}, "stages": \#(stages)}"#)
                == "dir/m.json: screen.scale: expected a whole number from 1 to 4, found 9")
        #expect(
            message(#"{"theme": "t", "screen": {"width": "wide", "height": 1}, "stages": \#(stages)}"#)
                == "dir/m.json: screen.width: expected a whole number, found a string")
        #expect(
            message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": [{"name": "x", "run": "drw"}]}"#)
                == #"dir/m.json: stages[0].run: expected one of "init", "theme", "layout", "images", "draw", "data", "settings", found "drw""#)
        #expect(
            message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(stages), "strategy": {}}"#)
                .hasPrefix(#"dir/m.json: top level: unknown key "strategy" (expected: assets, name, orientations"#))
        #expect(
            message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(stages), "orientations": ["upside-down"]}"#)
                == #"dir/m.json: orientations[0]: expected "portrait" or "landscape", found "upside-down""#)
        #expect(
            message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(stages), "strategies": {"reuseKeyBackgrounds": 1}}"#)
                == "dir/m.json: strategies.reuseKeyBackgrounds: expected true or false, found a number")
    }

    @Test func stagesMustComeAfterWhatTheyNeed() {
        #expect(
            message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": [{"name": "layouts", "run": "layout"}]}"#)
                == #"dir/m.json: stages[0]: the "layout" stage (layouts) needs a "theme" stage before it"#)
        #expect(
            message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": [{"name": "d", "run": "data", "lazy": true}]}"#)
                == #"dir/m.json: stages[0]: a "data" stage needs a "file""#)
        #expect(
            message(#"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": [{"name": "i", "run": "init", "lazy": true}]}"#)
                == #"dir/m.json: stages[0]: only "data" stages can be lazy (the UI needs the others to launch)"#)
    }

    @Test func theSlowdownIsOfRowsUnlessItSaysCPUTime() throws {
        func slowdown(_ members: String) -> String {
            #"{"theme": "t", "screen": {"width": 1, "height": 1}, "stages": \#(stages), "test": {"slowdown": {"stage": "themes", "fraction": 0.1\#(members)}}}"#
        }
        #expect(try parse(slowdown("")).injectedSlowdown == InjectedSlowdown(stage: "themes", fraction: 0.1, measure: .rows))
        #expect(try parse(slowdown(#", "of": "cpuTime""#)).injectedSlowdown?.measure == .cpuTime)
        #expect(try parse(slowdown(#", "of": "rows""#)).injectedSlowdown?.measure == .rows)
        #expect(message(slowdown(#", "of": "time""#)) == #"dir/m.json: test.slowdown.of: expected "rows" or "cpuTime", found "time""#)
    }

    @Test func syntaxErrorsGiveLineAndColumn() {
        #expect(message("{\n  \"theme\": \"t\",\n  \"screen\": {,}\n}") == "dir/m.json: invalid JSON at line 3, column 14: unexpected ','")
    }
}
