import LaunchManifest

/// LaunchPipeline's one error: a launch that could not run, because of bad input (an XML file, a
/// manifest, a settings file), a layout that does not fit its screen, or a stage that failed.
/// Every message is rendered here, by ``description``.
///
/// ``input(file:reason:)`` and ``stage(_:)`` carry message text built where they are thrown (the
/// manifest and settings readers, the stages): those messages name many different things, and the
/// text is the whole of what callers use.
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
    /// A problem with the input file `file` (a manifest, a settings file, a font atlas); `reason`
    /// is built at the throw site.
    case input(file: String, reason: String)
    /// A stage that failed, or input whose message names no single file: the whole message, built
    /// at the throw site.
    case stage(String)

    /// A stage failure with the message `message` (``stage(_:)``).
    public init(_ message: String) {
        self = .stage(message)
    }

    /// A manifest-schema error (a manifest, or a settings file read with the manifest's reader) as
    /// the pipeline's: ``input(file:reason:)``, or the whole message.
    public init(_ error: ManifestError) {
        if let file = error.file, let reason = error.reason { self = .input(file: file, reason: reason) } else { self = .stage(error.description) }
    }

    /// A problem with the input file `file` (``input(file:reason:)``).
    public static func input(_ file: String, _ reason: String) -> PipelineError {
        .input(file: file, reason: reason)
    }

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
        case .xml(let file, _, _, _, _), .input(let file, _): return file
        case .layout, .stage: return nil
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

    /// The reason without the file, line or orientation in front; `nil` for a ``stage(_:)`` failure.
    public var reason: String? {
        switch self {
        case .xml(_, _, _, let reason, _), .layout(_, let reason), .input(_, let reason): return reason
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
        case .input(let file, let reason):
            return "\(file): \(reason)"
        case .stage(let message):
            return message
        }
    }
}
