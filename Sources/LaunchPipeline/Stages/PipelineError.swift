/// A launch that could not run: bad input (a file's name and the reason) or a stage that failed.
public struct PipelineError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }

    /// A problem with the input file `file`.
    public static func input(_ file: String, _ reason: String) -> PipelineError {
        PipelineError("\(file): \(reason)")
    }
}
