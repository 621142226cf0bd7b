import LaunchCore
import LaunchExport
import LaunchHistory

/// A result a file path or git revision names: a file, or a document read from a history database.
enum StoredResult {
    case file(String)
    /// The document's bytes and the name errors give it (`store: commit`).
    case document([UInt8], label: String)

    /// The decoded result.
    func read() throws -> LaunchResult {
        switch self {
        case .file(let path): return try ResultFile.read(path)
        case .document(let bytes, let label): return try ResultFile.decode(bytes, path: label)
        }
    }

    /// The results, tabulated by the streaming reader: files at once on a thread each.
    static func tables(_ results: [StoredResult]) throws -> [TabulatedResult] {
        let paths = results.compactMap { if case .file(let path) = $0 { return path } else { return nil } }
        var files = ResultTableReader.read(all: paths).makeIterator()
        return try results.map { result in
            switch result {
            case .file: return try files.next()!.get()
            case .document(let bytes, let label): return try ResultTableReader.tabulate(bytes, path: label)
            }
        }
    }
}

/// Finds stored results by git revision in every store `diff` and `check` look in.
struct StoredResultLookup {
    var locations: [StoreLocation]

    /// The result `reference` names: an existing file as it is, else the revision's commit looked
    /// up in each store in turn for `tier`, target name `target` and `metric`.
    func locate(_ reference: String, tier: String?, target: String, metric: Metric) throws -> StoredResult {
        if FileIO.exists(reference), !FileIO.isDirectory(reference) { return .file(reference) }
        guard let commit = ResultMetadata.resolveRevision(reference) else {
            throw ResultFile.ReadError(path: reference, reason: "neither a result file nor a git revision")
        }
        var directoryError: Error?
        var elsewhere: [HistoryEntry] = []
        for location in locations {
            if case .directory(let path) = location {
                do {
                    return .file(try ResultStore(directory: path).locate(reference, tier: tier, manifest: target, metric: metric) { _ in commit })
                } catch {
                    directoryError = directoryError ?? error
                    continue
                }
            }
            guard FileIO.exists(location.description) || isServer(location) else { continue }
            let store = try location.open(create: false)
            if let entry = try store.find(commit: commit, tier: tier, target: target, metric: metric) {
                return .document(try store.document(entry), label: "\(store.location): \(commit.prefix(12))")
            }
            elsewhere += try store.entries(at: commit)
        }
        if locations.count == 1, let directoryError { throw directoryError }
        throw ResultFile.ReadError(
            path: reference, reason: missing(reference, commit: commit, tier: tier, target: target, metric: metric, elsewhere: elsewhere))
    }

    private func isServer(_ location: StoreLocation) -> Bool {
        if case .postgres = location { return true }
        return false
    }

    /// Why nothing was found, and what to do: the options that find the commit's other results, or how to record one.
    func missing(_ reference: String, commit: String, tier: String?, target: String, metric: Metric, elsewhere: [HistoryEntry]) -> String {
        let places = locations.map { "\($0)" }.joined(separator: " or ")
        let wanted = "\(target), tier \(tier ?? "host"), \(metric.rawValue)"
        let head = "no stored result for \(reference) (commit \(commit.prefix(12))) in \(places) for \(wanted)"
        if !elsewhere.isEmpty {
            let options = elsewhere.map { entry in
                var words = [entry.target.kind == .command ? "--for-command" : "--for-manifest", CommandInfo.shellQuoted(entry.target.name)]
                if entry.tier != "host" { words += ["--for-tier", CommandInfo.shellQuoted(entry.tier)] }
                if entry.metric == .instructions { words += ["--metric", "instructions"] }
                return "`" + words.joined(separator: " ") + "`"
            }
            return "\(head); this commit's stored results are for another target: pass \(options.joined(separator: ", or "))"
        }
        let instructions = metric == .instructions ? " --metric instructions" : ""
        return
            "\(head); record one with `git checkout \(CommandInfo.shellQuoted(reference)) && launchprof record\(instructions)` (the built-in app) or `launchprof exec --record -- COMMAND` (a program)"
    }
}
