import LaunchCore
#if canImport(Glibc)
import Glibc
#endif

/// A detached git work tree of the repository in a temporary directory of launchprof's own, where
/// `bisect` checks out, builds and measures each commit. It is removed (`git worktree remove`, then
/// the directory) by ``remove()``, and by ``ExitCleanup`` when launchprof ends first: an error,
/// `exit()`, or SIGINT, SIGTERM or SIGHUP. Every step uses the same path, so a program's path and
/// environment (and so its instruction count) do not change from one commit to the next.
final class BisectWorktree {
    /// The work tree's directory.
    let path: String
    private let repository: String
    private let git: String
    private let temporary: String
    private let registration: ExitCleanup.Registration
    private var removed = false

    /// Adds a work tree of `repository` at `commit`, in a new temporary directory, as `name`.
    init(repository: String, commit: String, name: String) throws {
        git = try ExecutableLookup.resolve("git")
        temporary = try FileIO.makeTemporaryDirectory(in: FileIO.temporaryDirectory, prefix: "launchprof-bisect-")
        let tree = temporary + "/" + name
        path = tree
        self.repository = repository
        // Registered after the temporary directory: run before its removal (newest first).
        registration = ExitCleanup.register { BisectWorktree.detach(tree, from: repository) }
        guard mkdir(buildTemporary, 0o700) == 0, ToolProcess.run(git, ["-C", repository, "worktree", "add", "--detach", "--force", path, commit]) == 0 else {
            remove()
            throw InputError.bisect(.cannotAddWorktree(path: path, commit: commit, repository: repository))
        }
    }

    /// Checks out `commit` (detached, discarding what the last build changed in tracked files);
    /// `false` when git cannot.
    func checkout(_ commit: String) -> Bool {
        ToolProcess.run(git, ["-C", path, "checkout", "--quiet", "--force", "--detach", commit]) == 0
    }

    /// Removes the work tree and its directory (once).
    func remove() {
        guard !removed else { return }
        removed = true
        Self.detach(path, from: repository)
        ExitCleanup.unregister(registration)
        FileIO.removeTemporaryDirectory(temporary)
    }

    deinit { remove() }

    /// `git worktree remove` of `path`, then the directory itself; when git could not remove it (an
    /// add cut short), `git worktree prune` drops git's record of it (and of any other work tree whose
    /// directory is gone, as `git gc` would; locked ones stay). Runs from the cleanup thread too:
    /// nothing here registers with ``ExitCleanup``.
    private static func detach(_ path: String, from repository: String) {
        let removed = CommandOutput.run(["git", "-C", repository, "worktree", "remove", "--force", "--force", path]) != nil
        FileIO.removeTree(path)
        if !removed { _ = CommandOutput.run(["git", "-C", repository, "worktree", "prune"]) }
    }

    /// Calls `body` with the work tree as the current directory, and goes back after.
    func inside<R>(_ body: () throws -> R) throws -> R {
        let previous = FileIO.currentDirectory() ?? "/"
        guard chdir(path) == 0 else { throw InputError.bisect(.cannotEnterWorktree(path: path, reason: String(cString: strerror(errno)))) }
        defer { _ = chdir(previous) }
        return try body()
    }

    /// Where a build's output goes: beside the work tree, in launchprof's temporary directory.
    var buildLog: String { path + ".build.log" }

    /// The build's `TMPDIR`: beside the work tree, removed with it.
    var buildTemporary: String { path + ".tmp" }
}
