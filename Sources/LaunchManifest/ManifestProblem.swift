import LaunchCore

/// What is wrong in a manifest (or a settings file read with ``ManifestLoader/Node``), as facts: what
/// was expected and found, the stage or strategy at fault. ``ManifestError/input(file:keyPath:problem:)``
/// adds the file and the key path; the words are written here, by ``description``, and nowhere else.
public enum ManifestProblem: Equatable, Sendable, CustomStringConvertible {
    /// The document nests deeper than `limit` levels at `line`:`column`.
    case tooDeep(Document, line: Int, column: Int, limit: Int)
    /// The document is not JSON (``CoreError/invalidJSON(offset:line:column:reason:)``).
    case invalidJSON(Document, CoreError)
    /// A manifest to make ``StrategyVariants`` of that is not a JSON object.
    case notAnObject
    /// An object without its required `key`.
    case missingKey(String)
    /// An object with `key`, which it may not have; `allowed` are the keys it may.
    case unknownKey(String, allowed: [String])
    /// A value that is not what it must be: `expected`, and what was `found` (`nil`: not said).
    case invalid(Expected, found: Found? = nil)
    /// A stage that runs `"snapshot"`, which is no launch stage any more.
    case snapshotIsNotAStage
    /// A stage named `name` after another of that name.
    case duplicateStage(name: String)
    /// A `data` stage without a `file`.
    case dataStageNeedsFile
    /// A `file` on a stage that takes none (only `data` and `settings` do).
    case fileNotTaken
    /// `lazy` on a stage that is not a `data` stage.
    case lazyNotData
    /// The launch stage `name` (running `kind`) with no `needed` stage before it.
    case missingPrerequisite(name: String, kind: StageKind, needed: StageKind)
    /// A screen larger than 8192 pixels on a side.
    case screenTooLarge(Screen)
    /// `name` (`test.slowdown.stage`) is no launch stage.
    case noLaunchStage(name: String)
    /// `name` (`strategies.preload.stage`) is no stage; `lazyData` are the lazy data stages' names.
    case noStage(name: String, lazyData: [String])
    /// `name` (`strategies.preload.stage`) is not a lazy data stage; `lazyData` are those there are.
    case notLazyData(name: String, lazyData: [String])
    /// A strategy that needs what the manifest does not have.
    case unmet(Need)
    /// A settings file's key label (`keyLabels.KEY`) that labels no key of the theme.
    case noKeyLabelled(String)
    /// A settings file's key label of `count` characters, outside `allowed`.
    case keyLabelLength(count: Int, allowed: ClosedRange<Int>)
    /// A settings file's key label with a character the label font has no glyph for.
    case noGlyph(Character)

    /// The kind of file read: it sets the depth it needs and how its messages say "not JSON".
    public enum Document: Equatable, Sendable {
        case manifest
        /// The app's settings file (LaunchPipeline's `Settings`).
        case settings
    }

    /// What a value must be, as the message says it after "expected".
    public enum Expected: Equatable, Sendable, CustomStringConvertible {
        case object
        case array
        case string
        case boolean
        case number
        case wholeNumber
        /// A whole number from `min` to `max`.
        case boundedWholeNumber(min: Int, max: Int)
        /// A number of seconds from 0 to `maximum`.
        case seconds(maximum: Int)
        /// A fraction from 0 to 100 (`test.slowdown.fraction`).
        case fraction
        /// A whole number of iterations from 0 to `maximum` (`test.slowFunction.iterations`).
        case iterations(maximum: Int)
        /// A stage's name.
        case nonEmptyName
        /// The splash image's file name.
        case splashFile
        /// The stage list.
        case atLeastOneStage
        /// An ``Orientation``.
        case orientation
        /// A stage's ``StageKind`` (its `run`).
        case stageKind
        /// What an injected slowdown measures (``InjectedSlowdown/Measure``).
        case measure
        /// A function that injected work can be added to (``InjectedFunctionWork/functions``).
        case injectedFunction
        /// What a preload hides under (``PreloadSpec/Moment``).
        case moment
        /// One of these names (a settings file's choice: its raw values).
        case oneOf([String])
        /// A string of at most `maximum` characters.
        case atMostCharacters(Int)
        /// A settings file's `keyLabels`: an object.
        case keyLabelObject
        /// At most `maximum` key labels.
        case atMostKeyLabels(Int)

        public var description: String {
            switch self {
            case .object: return "an object"
            case .array: return "an array"
            case .string: return "a string"
            case .boolean: return "true or false"
            case .number: return "a number"
            case .wholeNumber: return "a whole number"
            case .boundedWholeNumber(let min, let max): return "a whole number from \(min) to \(max)"
            case .seconds(let maximum): return "seconds from 0 to \(maximum)"
            case .fraction: return "a fraction from 0 to 100"
            case .iterations(let maximum): return "a whole number of iterations from 0 to \(maximum)"
            case .nonEmptyName: return "a non-empty name"
            case .splashFile: return "the file name of a PNG in the assets directory"
            case .atLeastOneStage: return "at least one stage"
            case .orientation: return Self.quoted(Orientation.allCases.map(\.rawValue)).joined(separator: " or ")
            case .stageKind: return "one of " + Self.quoted(StageKind.allCases.map(\.rawValue)).joined(separator: ", ")
            case .measure: return Self.quoted(InjectedSlowdown.Measure.allCases.map(\.rawValue)).joined(separator: " or ")
            case .injectedFunction: return "one of " + InjectedFunctionWork.functions.joined(separator: ", ")
            case .moment:
                let moments = Self.quoted(PreloadSpec.Moment.allCases.map(\.rawValue)).joined(separator: ", ")
                return "\(moments) (the only moment a preload can hide under for now)"
            case .oneOf(let names): return "one of " + Self.quoted(names).joined(separator: ", ")
            case .atMostCharacters(let maximum): return "at most \(maximum) characters"
            case .keyLabelObject: return "an object of key labels"
            case .atMostKeyLabels(let maximum): return "at most \(maximum) key labels"
            }
        }

        private static func quoted(_ names: [String]) -> [String] { names.map { "\"\($0)\"" } }
    }

    /// What a value was instead, as the message says it after "found".
    public enum Found: Equatable, Sendable, CustomStringConvertible {
        /// A value of another JSON kind (``JSONValue/kindDescription``: `a string`, `null`).
        case kind(String)
        /// A string, quoted.
        case text(String)
        /// A string, quoted, its first 40 characters only (a value no schema bounds).
        case excerpt(String)
        case number(Double)
        case wholeNumber(Int)

        public var description: String {
            switch self {
            case .kind(let kind): return kind
            case .text(let text): return "\"\(text)\""
            case .excerpt(let text): return "\"\(text.prefix(40))\""
            case .number(let number): return "\(number)"
            case .wholeNumber(let number): return "\(number)"
            }
        }
    }

    /// What a strategy needs of the rest of the manifest (each at its strategy's key path).
    public enum Need: Equatable, Sendable, CustomStringConvertible {
        /// `sendReportOnClose` needs a `snapshot` path.
        case reportNeedsSnapshot
        /// `loadingDialog` needs `snapshotFirst`.
        case dialogNeedsSnapshotFirst
        /// `snapshotFirst` needs a `snapshot` path.
        case snapshotFirstNeedsSnapshot
        /// `snapshotFirst` needs a `splash` image.
        case snapshotFirstNeedsSplash
        /// `snapshotFirst` needs a `draw` stage at launch.
        case snapshotFirstNeedsDraw
        /// `strategy` (`thumbnailsFirst`, `checkStaleDecodes`) needs `backgroundDecode`.
        case backgroundDecode(strategy: String)
        /// `preload` needs a `draw` stage at launch.
        case preloadNeedsDraw

        public var description: String {
            switch self {
            case .reportNeedsSnapshot:
                return #"the report is sent while holding the saved state's lock, so the manifest needs a "snapshot" path"#
            case .dialogNeedsSnapshotFirst: return "the dialog is drawn over the saved snapshot, so it needs snapshotFirst"
            case .snapshotFirstNeedsSnapshot: return #"the app shows its saved snapshot first, so the manifest needs a "snapshot" path"#
            case .snapshotFirstNeedsSplash:
                return #"a first launch has no snapshot to show, so the manifest needs a "splash" image (an asset)"#
            case .snapshotFirstNeedsDraw: return #"the real UI must be drawn after the snapshot, so the manifest needs a "draw" stage"#
            case .backgroundDecode(let strategy): return "\(strategy) is about images decoded on worker threads, so it needs backgroundDecode"
            case .preloadNeedsDraw:
                return #"the preload hides under the launch animation, which slides the drawn keys in, so the manifest needs a "draw" stage at launch"#
            }
        }
    }

    public var description: String {
        switch self {
        case .tooDeep(let document, let line, let column, let limit):
            let needs = document == .manifest ? "a manifest needs 3" : "settings need 2"
            return "line \(line), column \(column): nested more than \(limit) levels deep (\(needs))"
        case .invalidJSON(let document, let error):
            return (document == .manifest ? "invalid JSON" : "not valid JSON") + error.position
        case .notAnObject: return "not a JSON object"
        case .missingKey(let key): return "missing required key \"\(key)\""
        case .unknownKey(let key, let allowed): return "unknown key \"\(key)\" (expected: \(allowed.joined(separator: ", ")))"
        case .invalid(let expected, let found?): return "expected \(expected), found \(found)"
        case .invalid(let expected, nil): return "expected \(expected)"
        case .snapshotIsNotAStage:
            return
                "\"snapshot\" is not a launch stage any more: the app saves its snapshot when it enters the background, after the launch (remove this stage; see docs/manifest.md)"
        case .duplicateStage(let name): return "another stage is already named \"\(name)\""
        case .dataStageNeedsFile: return #"a "data" stage needs a "file""#
        case .fileNotTaken: return #"only "data" and "settings" stages take a "file""#
        case .lazyNotData: return #"only "data" stages can be lazy (the UI needs the others to launch)"#
        case .missingPrerequisite(let name, let kind, let needed):
            return "the \"\(kind.rawValue)\" stage (\(name)) needs a \"\(needed.rawValue)\" stage before it"
        case .screenTooLarge(let screen):
            return "\(screen.width)×\(screen.height) @\(screen.scale)x is larger than 8192 pixels on a side"
        case .noLaunchStage(let name): return "no launch stage is named \"\(name)\""
        case .noStage(let name, let lazyData): return "no stage is named \"\(name)\" (\(Self.candidates(lazyData)))"
        case .notLazyData(let name, let lazyData):
            return "\"\(name)\" is not a lazy data stage: only what waits for its first use can be preloaded (\(Self.candidates(lazyData)))"
        case .unmet(let need): return need.description
        case .noKeyLabelled(let key): return "no key of the theme is labelled \"\(key.prefix(40))\""
        case .keyLabelLength(let count, let allowed):
            return "a key label must be \(allowed.lowerBound) to \(allowed.upperBound) characters, found \(count)"
        case .noGlyph(let character): return "the label font has no glyph for \"\(character)\""
        }
    }

    /// `lazy data stages: "a", "b"`, or `none`.
    private static func candidates(_ lazyData: [String]) -> String {
        "lazy data stages: \(lazyData.isEmpty ? "none" : lazyData.map { "\"\($0)\"" }.joined(separator: ", "))"
    }
}
