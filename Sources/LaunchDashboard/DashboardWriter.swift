import LaunchCore

#if canImport(Glibc)
import Glibc
#endif

/// Writes a dashboard into a directory, all at once: the files go into a new directory beside it,
/// renamed into place; a previous dashboard there is moved aside first and removed after. A
/// directory that holds anything else is refused, untouched.
public enum DashboardWriter {
    /// The file that marks a directory as a dashboard launchprof wrote (and may replace).
    public static let marker = ".launchprof-dashboard"
    /// Every file a dashboard holds.
    public static let fileNames = ["index.html", "dashboard.js", "dashboard.css", marker]

    /// The files of `data`'s dashboard: name and contents.
    public static func files(_ data: DashboardData) -> [(name: String, text: String)] {
        [
            ("index.html", DashboardPage.html(data)), ("dashboard.js", DashboardScript.javascript), ("dashboard.css", DashboardStyle.css),
            (marker, "launchprof history dashboard, data version \(DashboardJSON.version)\n")
        ]
    }

    /// Refuses `directory` unless it is missing, empty, or a previous dashboard (its marker and only
    /// a dashboard's files): checked before any work.
    public static func checkReplaceable(_ directory: String) throws(DashboardError) {
        var info = stat()
        guard lstat(directory, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .notADashboard(path: directory, reason: "exists and is not a directory (the dashboard is a directory of files)")
        }
        let names = FileIO.entries(of: directory)
        guard !names.isEmpty else { return }
        guard names.contains(marker) else {
            throw .notADashboard(
                path: directory, reason: "is a directory of other files, not a dashboard launchprof wrote (no \(marker)): give a new or empty directory")
        }
        if let other = names.sorted().first(where: { !fileNames.contains($0) }) {
            throw .notADashboard(path: directory, reason: "holds \(other), which a dashboard does not: not replaced (move it, or give another directory)")
        }
    }

    /// Writes `data`'s dashboard to `directory` (made with its parents when missing).
    public static func write(_ data: DashboardData, to directory: String) throws(DashboardError) {
        try checkReplaceable(directory)
        let trimmed = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        let parent = FileIO.parentDirectory(of: trimmed).isEmpty ? "." : FileIO.parentDirectory(of: trimmed)
        let base = trimmed.split(separator: "/").last.map(String.init) ?? "dashboard"
        do { try FileIO.createDirectories(parent) } catch { throw .io(path: parent, reason: "\(error)") }
        let staging: String
        do { staging = try FileIO.makeTemporaryDirectory(in: parent, prefix: ".\(base).new-") } catch { throw .io(path: parent, reason: "\(error)") }
        defer { FileIO.removeTemporaryDirectory(staging) }
        for file in files(data) {
            do { try FileIO.writeAtomically(file.text, to: "\(staging)/\(file.name)") } catch { throw .io(path: directory, reason: "\(error)") }
        }
        chmod(staging, 0o755)
        try moveIntoPlace(staging, trimmed)
    }

    /// Renames `staging` to `directory`: over a missing or empty directory in one rename; a previous
    /// dashboard is renamed aside first (and back when the second rename fails), then removed.
    static func moveIntoPlace(_ staging: String, _ directory: String) throws(DashboardError) {
        if rename(staging, directory) == 0 { return }
        guard errno == ENOTEMPTY || errno == EEXIST else { throw .io(path: directory, reason: String(cString: strerror(errno))) }
        let aside = "\(staging).old"
        guard rename(directory, aside) == 0 else {
            throw .io(path: directory, reason: "cannot move the previous dashboard aside: \(String(cString: strerror(errno)))")
        }
        guard rename(staging, directory) == 0 else {
            let reason = String(cString: strerror(errno))
            rename(aside, directory)
            throw .io(path: directory, reason: reason)
        }
        FileIO.removeTree(aside)
    }
}
