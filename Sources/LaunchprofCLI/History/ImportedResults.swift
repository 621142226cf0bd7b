import LaunchCore
import LaunchResults

/// What `history import` stores: the result files named, and each directory's `*.json` files in
/// name order, every one read and checked before anything is stored.
enum ImportedResults {
    /// The results `paths` name, read and checked: a path that does not exist, a file that is not a
    /// result, or a result made outside a git work tree (the history keys results by commit) is an input error.
    static func read(_ paths: [String]) throws -> [LaunchResult] {
        try files(paths).map { file in
            let result = try ResultFile.read(file)
            guard result.git != nil else {
                throw InputError.history(.resultWithoutCommit(path: file))
            }
            return result
        }
    }

    /// The files named, and each directory's `*.json` files in name order.
    static func files(_ paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            if FileIO.isDirectory(path) {
                files += FileIO.entries(of: path).filter { $0.hasSuffix(".json") }.sorted().map { "\(path)/\($0)" }
            } else if FileIO.exists(path) {
                files.append(path)
            } else {
                throw InputError.history(.noSuchFile(path: path))
            }
        }
        return files
    }
}
