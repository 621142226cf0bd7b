#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchManifest

extension PipelineError {
    /// What failed in a stage, as facts: the stage, the file and key path or element it is about,
    /// the value that was refused. Rendered by ``description`` (through ``PipelineError/description``).
    public enum StageFailure: Equatable, Sendable, CustomStringConvertible {
        /// `step` (`the draw stage`, `the launch animation`) ran before the stages `needs` (`init`,
        /// `layout`): the manifest's stage order left them out or put them later.
        case stagesMissing(step: String, needs: [String])
        /// The preload worker thread was joined without having stored what it prepared.
        case preloadWithoutOutcome
        /// `touch` named `name`, which is not one of `manifest`'s `lazyStages`.
        case unknownLazyStage(name: String, manifest: String, lazyStages: [String])
        /// `manifest` asks for `orientation`, and the theme `theme` has no `<layout>` for it.
        case orientationWithoutLayout(theme: String, manifest: String, orientation: Orientation)
        /// The theme's `<layout>` for `orientation` (at `line`:`column` of `theme`) does not fit
        /// `manifest`'s `width`×`height` pt screen: the layout engine's `reason`.
        case layoutDoesNotFit(
            theme: String, line: Int, column: Int, orientation: Orientation, width: Int, height: Int, manifest: String, reason: String)
        /// The `orientation` layout of `theme`, laid out again (settings changed its labels), that no
        /// longer fits: the layout engine's `reason`.
        case relayout(theme: String, orientation: Orientation, reason: String)
        /// `element` at `line`:`column` of the theme `theme` (line 0: no position) draws text with
        /// the font `font`, which cannot draw it (``FontProblem``).
        case font(theme: String, line: Int, column: Int, element: String, font: String, FontProblem)
        /// `test.slowdown.stage` of `manifest` names `stage`, which is not a draw stage.
        case slowdownNotDrawing(manifest: String, stage: String)
        /// The data stage `stage` has no `file` to parse.
        case dataStageWithoutFile(stage: String)
        /// `manifest` turns `snapshotFirst` on and names no `splash` image.
        case snapshotFirstWithoutSplash(manifest: String)
        /// The snapshot's PNG has no room for its launch key's text chunk.
        case snapshotUntaggable
        /// `--force-decode-race` on a theme that cannot race (``DecodeRaceProblem``).
        case decodeRace(theme: String, DecodeRaceProblem)
        /// The state lock at `path` could not be opened or taken (`step`): the system's `errno`.
        case stateLock(path: String, step: StateLockStep, errno: Int32)
        /// The control channel sent `line`, which is no command the app knows.
        case unknownControlCommand(line: String)

        /// Why a theme's font cannot draw an element's text.
        public enum FontProblem: Equatable, Sendable {
            /// The font was never loaded (no `images` stage ran).
            case notLoaded
            /// The font has no glyph for the characters `missing` of `text`.
            case noGlyph(text: String, missing: String)
        }

        /// Why `--force-decode-race` has nothing to race with.
        public enum DecodeRaceProblem: Equatable, Sendable {
            /// The `<window>` shows no image.
            case windowShowsNoImage
            /// The theme has no other image file to give the window.
            case noOtherImage
        }

        /// What could not be done with the state lock.
        public enum StateLockStep: String, Equatable, Sendable {
            case open, take
        }

        /// The file the failure is about, if it names one (a theme, a manifest, the lock file).
        public var file: String? {
            switch self {
            case .unknownLazyStage(_, let manifest, _), .slowdownNotDrawing(let manifest, _), .snapshotFirstWithoutSplash(let manifest):
                return manifest
            case .orientationWithoutLayout(let theme, _, _), .layoutDoesNotFit(let theme, _, _, _, _, _, _, _), .relayout(let theme, _, _),
                .font(let theme, _, _, _, _, _), .decodeRace(let theme, _):
                return theme
            case .stateLock(let path, _, _): return path
            case .stagesMissing, .preloadWithoutOutcome, .dataStageWithoutFile, .snapshotUntaggable, .unknownControlCommand: return nil
            }
        }

        public var description: String {
            switch self {
            case .stagesMissing(let step, let needs):
                return "the \(step) needs the \(Self.listed(needs)) stage\(needs.count == 1 ? "" : "s") first"
            case .preloadWithoutOutcome: return "the preload thread ended without an outcome"
            case .unknownLazyStage(let name, let manifest, let lazyStages):
                let names = lazyStages.map { "\"\($0)\"" }.joined(separator: ", ")
                return "no lazy stage named \"\(name)\" in \(manifest) (lazy stages: \(names.isEmpty ? "none" : names))"
            case .orientationWithoutLayout(let theme, let manifest, let orientation):
                return "\(theme): \(manifest) asks for the \(orientation.rawValue) orientation, which the theme has no <layout> for"
            case .layoutDoesNotFit(let theme, let line, let column, let orientation, let width, let height, let manifest, let reason):
                return
                    "\(theme):\(line):\(column): <layout orientation=\"\(orientation.rawValue)\"> doesn't fit the \(width)×\(height) pt screen of \(manifest): \(reason)"
            case .relayout(let theme, let orientation, let reason):
                return "\(theme): \(orientation.rawValue) layout: \(reason)"
            case .font(let theme, let line, let column, let element, let font, let problem):
                let location = line > 0 ? "\(theme):\(line):\(column)" : theme
                switch problem {
                case .notLoaded:
                    return "\(location): \(element): font '\(font)' was not loaded: is there an \"images\" stage?"
                case .noGlyph(let text, let missing):
                    return "\(location): \(element): text \"\(text)\" uses \(missing.debugDescription), which font '\(font)' has no glyph for"
                }
            case .slowdownNotDrawing(let manifest, let stage):
                return
                    "\(manifest): test.slowdown.stage: only a draw stage can be slowed down (it repeats part of the drawing), and \"\(stage)\" is not one"
            case .dataStageWithoutFile(let stage): return "the data stage \"\(stage)\" has no file"
            case .snapshotFirstWithoutSplash(let manifest): return "\(manifest): snapshotFirst needs a \"splash\" image"
            case .snapshotUntaggable: return "could not tag the snapshot with its launch key"
            case .decodeRace(let theme, .windowShowsNoImage):
                return
                    "--force-decode-race: \(theme): the <window> shows no image (texture=\"…\" naming an <image>), so there is no decode to race with"
            case .decodeRace(let theme, .noOtherImage):
                return "--force-decode-race: \(theme) has no other image file to give the window"
            case .stateLock(let path, let step, let errno):
                return "\(path): cannot \(step.rawValue) the state lock: \(String(cString: strerror(errno)))"
            case .unknownControlCommand(let line):
                return
                    "the control channel sent '\(ProtocolWriter.escape(String(line.prefix(80))))', which the app does not know (docs/protocol.md lists tap, background, foreground and quit)"
            }
        }

        /// `a`, `a and b`, `a, b and c`.
        private static func listed(_ names: [String]) -> String {
            guard let last = names.last, names.count > 1 else { return names.first ?? "" }
            return names.dropLast().joined(separator: ", ") + " and " + last
        }
    }
}
