import LaunchCore

/// Output files checked before any run (`--output`, `--junit`, `--export-…`, `--snapshot`): a
/// directory, or a file in a directory that cannot be written, is an input error naming the option.
enum OutputPath {
    static func check(_ path: String?, option: String) throws {
        guard let path else { return }
        do { try FileIO.checkWritable(path) } catch { throw InputError.value(option: option, error) }
    }

    /// A directory results are written into (`--store`): it may not exist yet, but then the nearest
    /// directory above it must be writable.
    static func checkDirectory(_ path: String, option: String) throws {
        do { try FileIO.checkWritable(path.hasSuffix("/") ? path + "result.json" : path + "/result.json") } catch {
            throw InputError.usage(.cannotWriteResults(option: option, directory: path, reason: error.reason))
        }
    }
}
