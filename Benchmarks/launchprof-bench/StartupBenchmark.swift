import Foundation
import LaunchCore

/// The built-in app's process start against a Swift hello world's (goal: the app's spawn-to-`main`
/// ≤ 1.3× the hello world's), so `Time for process start` measures a Swift process starting, not
/// the libraries the app happens to link.
///
/// The benchmark compiles the hello world itself (`swiftc -O`, the toolchain on the PATH, which
/// built the app): it reads `CLOCK_MONOTONIC` at the top of `main` and writes `main <ns>` to fd 3,
/// as the app does. Both are spawned the way `launchprof run` spawns the app (`posix_spawn`, a
/// process group of their own, fd 3 a pipe, the clock read just before the spawn), `pairs` times
/// each, alternately and in alternating order; each side's figure is its median. The app runs with
/// a manifest that does not exist: it reports `main`, then exits at once. Two more hello worlds are
/// measured beside them for reference: one importing Foundation (what the app's start would include
/// if it linked Foundation), and one built with `-static-stdlib`, as the app is (Package.swift).
struct StartupBenchmark {
    var pairs = 200
    var app = ".build/release/launchprof-app"

    func report() {
        guard FileManager.default.isExecutableFile(atPath: app) else {
            print("startup: skipped: \(app) is not built (swift build -c release --product launchprof)")
            return
        }
        let directory = NSTemporaryDirectory() + "launchprof-startup-bench-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        guard let hello = Self.compile(Self.helloSource(importingFoundation: false), name: "hello", in: directory),
            let helloFoundation = Self.compile(Self.helloSource(importingFoundation: true), name: "hello-foundation", in: directory),
            let helloStatic = Self.compile(Self.helloSource(importingFoundation: false), name: "hello-static", in: directory, flags: ["-static-stdlib"])
        else {
            print("startup: skipped: swiftc could not build the hello world (is the toolchain on the PATH?)")
            return
        }
        let sides: [(String, [String])] = [
            (app, ["--manifest", "\(directory)/no-such-manifest.json", "--no-snapshot"]),
            (hello, []),
            (helloFoundation, []),
            (helloStatic, [])
        ]
        // A few unmeasured launches each: the binaries and their libraries into the page cache.
        for _ in 0..<5 { for side in sides { _ = Self.spawnToMain(side.0, side.1) } }
        var samples: [[Double]] = Array(repeating: [], count: sides.count)
        for pair in 0..<pairs {
            let order = pair % 2 == 0 ? Array(sides.indices) : Array(sides.indices.reversed())
            for index in order {
                guard let nanoseconds = Self.spawnToMain(sides[index].0, sides[index].1) else {
                    print("startup: \(sides[index].0) did not report its main reading")
                    return
                }
                samples[index].append(nanoseconds / 1e6)
            }
        }
        let medians = samples.map { $0.sorted()[$0.count / 2] }
        let ratio = medians[0] / medians[1]
        print(
            "startup: app spawn-to-main \(format(medians[0])) ms, Swift hello world \(format(medians[1])) ms, ratio \(format(ratio)), goal <= 1.3x: \(ratio <= 1.3 ? "met" : "missed") (medians of \(pairs) alternated pairs)"
        )
        print(
            "startup: for reference, Swift hello worlds: importing Foundation \(format(medians[2])) ms, ratio \(format(medians[2] / medians[1])) (the app when it linked Foundation: 2.95x); -static-stdlib \(format(medians[3])) ms, the app \(format(medians[0] / medians[3]))x that"
        )
    }

    /// A Swift program whose first statement reads the clock and writes `main <ns>` to fd 3.
    static func helloSource(importingFoundation: Bool) -> String {
        """
        \(importingFoundation ? "import Foundation" : "import Glibc")
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let line = "main \\(UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec))\\n"
        _ = line.withCString { write(3, $0, strlen($0)) }
        \(importingFoundation ? "if CommandLine.arguments.count > 99 { print(Date()) }" : "")

        """
    }

    /// Compiles `source` with `swiftc -O` and `flags` into `directory`; the executable's path.
    static func compile(_ source: String, name: String, in directory: String, flags: [String] = []) -> String? {
        let sourcePath = "\(directory)/\(name).swift", executable = "\(directory)/\(name)"
        guard FileManager.default.createFile(atPath: sourcePath, contents: Data(source.utf8)) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [ProcessInfo.processInfo.environment["SWIFTC"] ?? "swiftc", "-O"] + flags + [sourcePath, "-o", executable]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? executable : nil
    }

    /// Nanoseconds from just before `posix_spawn` to the `main <ns>` reading the program writes to
    /// fd 3, spawned as `ProcessLauncher` spawns a run; `nil` when it writes none.
    static func spawnToMain(_ executable: String, _ arguments: [String]) -> Double? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        // Only the dup2 to fd 3 reaches the child.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], AppInterface.protocolDescriptor)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let start = MonotonicClock.nanoseconds()
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        close(fds[1])
        defer { close(fds[0]) }
        guard status == 0 else { return nil }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var reading: UInt64?
        while reading == nil {
            let count = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output += buffer[..<count]
            for line in String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            where line.hasPrefix("main ") {
                reading = UInt64(line.dropFirst(5))
            }
        }
        var exitStatus: Int32 = 0
        while waitpid(pid, &exitStatus, 0) < 0, errno == EINTR {}
        guard let reading, reading >= start else { return nil }
        return Double(reading - start)
    }
}
