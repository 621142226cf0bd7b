import LaunchCore
import LaunchResults

/// The result document itself, as pretty-printed JSON with sorted keys (schema: `docs/result.schema.json`).
public struct JSONResultExporter: ResultExporter {

    public init() {}

    public func render(_ result: LaunchResult) throws(ExportError) -> String {
        do { return String(decoding: try ResultFile.encode(result), as: UTF8.self) + "\n" } catch { throw .unencodable(error) }
    }
}
