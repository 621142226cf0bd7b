import LaunchCore
import LaunchImage
import LaunchManifest

/// LaunchPipeline's one error: a launch that could not run, because of bad input (an XML file, a
/// manifest, a settings file), a layout that does not fit its screen, or a stage that failed.
/// Every message is rendered here, by ``description``.
///
/// A stage's failure is a ``StageFailure`` (``stage(_:)``): what failed and the file, key path or
/// element it is about. A settings file's problem is LaunchManifest's typed error, carried as it is
/// (``manifest(_:)``); an image that cannot be decoded, LaunchImage's (``image(_:)``).
public enum PipelineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of problem an XML file has, for callers and tests that tell them apart.
    public enum XMLProblem: Equatable, Sendable {
        /// Not well-formed XML (libxml2's own error).
        case malformed
        /// Not UTF-8, or another encoding declared.
        case encoding
        /// A DOCTYPE, wherever it stands: refused inside the parser.
        case doctype
        /// An entity declaration or an entity expansion that libxml2's limits refused.
        case entity
        /// Elements nested deeper than ``SafeXMLReader/maximumDepth``.
        case tooDeep
        /// Well-formed, but not what the schema allows (unknown element, bad value, out of range).
        case invalid
    }

    /// A problem in an XML file, at a line and column: syntax errors from libxml2, refusals
    /// (DOCTYPE, entity declarations, nesting, encoding) and meaning errors (unknown style, bad
    /// number) found while reading the elements.
    case xml(file: String, line: Int, column: Int, reason: String, kind: XMLProblem = .invalid)
    /// A layout that cannot be built on the requested screen.
    case layout(orientation: Orientation, reason: String)
    /// A settings file (read with the manifest's reader) that is not what its schema allows: LaunchManifest's
    /// error, which names the file and the key path.
    case manifest(ManifestError)
    /// A file the pipeline cannot read or make (a settings file, the state lock's directory): the
    /// file system's refusal, which names it.
    case file(CoreError)
    /// The font `font`'s atlas at `file`, `width`×`height`, that does not divide into `columns` ×
    /// `rows` glyph cells.
    case fontAtlas(file: String, font: String, width: Int, height: Int, columns: Int, rows: Int)
    /// An image or font atlas that cannot be decoded: LaunchImage's error, which names the file.
    case image(PNGError)
    /// A stage that failed: what, and the file, key path or element it is about.
    case stage(StageFailure)

    /// An XML schema error (``XMLProblem/invalid``) about `node` of `file`.
    public static func xml(file: String, node: XMLNode, _ reason: String) -> PipelineError {
        .xml(file: file, line: node.line, column: node.column, reason: reason, kind: .invalid)
    }

    /// The XML problem's kind, or `nil` for an error that is not about an XML file.
    public var kind: XMLProblem? {
        if case .xml(_, _, _, _, let kind) = self { return kind }
        return nil
    }

    /// The file the error is about (an XML or input file), if it names one.
    public var file: String? {
        switch self {
        case .xml(let file, _, _, _, _), .fontAtlas(let file, _, _, _, _, _): return file
        case .manifest(let error): return error.file
        case .file(let error): return error.path
        case .image(let error): return error.file
        case .stage(let failure): return failure.file
        case .layout: return nil
        }
    }

    /// The XML problem's line (1-based), or `nil`.
    public var line: Int? {
        if case .xml(_, let line, _, _, _) = self { return line }
        return nil
    }

    /// The XML problem's column (1-based), or `nil`.
    public var column: Int? {
        if case .xml(_, _, let column, _, _) = self { return column }
        return nil
    }

    /// The reason without the file, line or orientation in front; `nil` for a ``stage(_:)`` failure
    /// (its ``StageFailure/description`` is the whole message).
    public var reason: String? {
        switch self {
        case .xml(_, _, _, let reason, _), .layout(_, let reason): return reason
        case .manifest(let error): return error.reason
        case .file(let error): return error.reason
        case .image(let error): return error.reason
        case .fontAtlas(_, let font, let width, let height, let columns, let rows):
            return "font '\(font)': a \(width)×\(height) atlas does not divide into \(columns) columns × \(rows) rows of glyph cells"
        case .stage: return nil
        }
    }

    public var description: String {
        switch self {
        case .xml(let file, let line, let column, let reason, _):
            // `file:line:column: reason`, the form editors and terminals link to.
            return "\(file):\(line):\(column): \(reason)"
        case .layout(let orientation, let reason):
            return "\(orientation.rawValue) layout: \(reason)"
        case .manifest(let error): return error.description
        case .file(let error): return error.description
        case .image(let error): return error.description
        case .fontAtlas(let file, _, _, _, _, _): return "\(file): \(reason ?? "")"
        case .stage(let failure): return failure.description
        }
    }
}
