import LaunchCore
import LaunchManifest
import Testing

@testable import LaunchPipeline

/// A bad settings file is refused with LaunchManifest's typed problem, carried by the pipeline's
/// error as it is (``PipelineError/manifest(_:)``): each case pinned to its whole message, the file
/// and key path in front, as the messages were when they were worded at the throw site.
@Suite struct SettingsErrorTests {
    static let theme = Result { try ThemeParser.load(path: Paths.packageRoot + "/Fixtures/heavy/theme.xml") }

    func refusal(_ json: String) throws -> PipelineError? {
        let theme = try Self.theme.get()
        do {
            _ = try Settings.parse(Array(json.utf8), path: "/x/settings.json", theme: theme)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        (
            #"{"angleMode": "turns"}"#, "angleMode",
            ManifestProblem.invalid(.oneOf(["deg", "rad", "grad"]), found: .excerpt("turns")),
            #"angleMode: expected one of "deg", "rad", "grad", found "turns""#
        ),
        (
            #"{"displayMode": "\#(String(repeating: "y", count: 50))"}"#, "displayMode",
            .invalid(.oneOf(["standard", "scientific", "engineering"]), found: .excerpt(String(repeating: "y", count: 50))),
            #"displayMode: expected one of "standard", "scientific", "engineering", found "\#(String(repeating: "y", count: 40))""#
        ),
        (
            #"{"title": "\#(String(repeating: "x", count: 41))"}"#, "title", .invalid(.atMostCharacters(40), found: .wholeNumber(41)),
            "title: expected at most 40 characters, found 41"
        ),
        (#"{"keyLabels": [1]}"#, "keyLabels", .invalid(.keyLabelObject), "keyLabels: expected an object of key labels"),
        (#"{"keyLabels": {"nope": "x"}}"#, "keyLabels.nope", .noKeyLabelled("nope"), #"keyLabels.nope: no key of the theme is labelled "nope""#),
        (
            #"{"keyLabels": {"sin": "sin⁻¹⁻¹⁻¹"}}"#, "keyLabels.sin", .keyLabelLength(count: 9, allowed: 1...8),
            "keyLabels.sin: a key label must be 1 to 8 characters, found 9"
        ),
        (#"{"keyLabels": {"sin": "日"}}"#, "keyLabels.sin", .noGlyph("日"), #"keyLabels.sin: the label font has no glyph for "日""#)
    ])
    func eachSettingsProblemIsTypedAndWordedAsBefore(json: String, keyPath: String, problem: ManifestProblem, message: String) throws {
        let expected = ManifestError.input(file: "/x/settings.json", keyPath: keyPath, problem: problem)
        let thrown = try refusal(json)
        #expect(thrown == .manifest(expected))
        #expect(thrown?.description == "/x/settings.json: \(message)")
        #expect(thrown?.file == "/x/settings.json")
        #expect(thrown?.reason == message)
    }

    @Test func tooManyKeyLabelsIsTypedToo() throws {
        let many = "{\"keyLabels\": {" + (0..<65).map { "\"k\($0)\": \"x\"" }.joined(separator: ", ") + "}}"
        let problem = ManifestProblem.invalid(.atMostKeyLabels(64), found: .wholeNumber(65))
        #expect(try refusal(many) == .manifest(.input(file: "/x/settings.json", keyPath: "keyLabels", problem: problem)))
        #expect(problem.description == "expected at most 64 key labels, found 65")
    }

    @Test func anUnreadableSettingsFileCarriesTheFileSystemsError() throws {
        let directory = Paths.temporaryDirectory()
        let theme = try Self.theme.get()
        do {
            _ = try Settings.load(path: directory, theme: theme)
            Issue.record("a directory must be refused")
        } catch {
            guard case .file(let refusal) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(refusal.path == directory)
            #expect(error.description == refusal.description)
            #expect(error.file == directory)
        }
    }

    @Test func aFontAtlasThatDoesNotDivideIsWordedAsBefore() {
        let error = PipelineError.fontAtlas(file: "a/font.png", font: "label", width: 30, height: 20, columns: 4, rows: 3)
        #expect(error.description == "a/font.png: font 'label': a 30×20 atlas does not divide into 4 columns × 3 rows of glyph cells")
        #expect(error.file == "a/font.png")
    }
}
