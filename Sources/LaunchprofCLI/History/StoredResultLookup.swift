import LaunchCore
import LaunchExport
import LaunchResults
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
            throw ResultError.notFileOrRevision(reference: reference)
        }
        var directoryError: ResultError?
        var atCommit: [LaunchResult] = [], program: LaunchResult?
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
            let entries = try store.entries()
            atCommit += try entries.filter { $0.commit.hash == commit }.prefix(8).map { try header(of: $0, in: store) }
            if program == nil, let entry = entries.last(where: { $0.target.kind == .command }) { program = try header(of: entry, in: store) }
        }
        if locations.count == 1, let directoryError { throw directoryError }
        let places = locations.map(\.description).joined(separator: " or ")
        throw ResultError.notStored(
            reference: reference, commit: commit, searched: " in \(places) for \(target), tier \(tier ?? "host"), \(metric.rawValue)",
            advice: ResultStore.missingAdvice(reference, metric: metric, atCommit: atCommit, program: program))
    }

    /// The stored result's description (its runs left out).
    private func header(of entry: HistoryEntry, in store: any HistoryStore) throws -> LaunchResult {
        try ResultTableReader.tabulate(try store.document(entry), path: "\(store.location): \(entry.commit.hash.prefix(12))").header
    }

    private func isServer(_ location: StoreLocation) -> Bool {
        if case .postgres = location { return true }
        return false
    }
}
