// swift-tools-version: 6.0
import PackageDescription

// Dependency direction (each module only imports the ones above it):
//
//   LaunchCore      clock, phase recorder, result model, the core's clock probe (Glibc and CClockChain only: it runs
//                   in the measured process)
//   LaunchManifest  the built-in app's manifest: its schema, loader and checks, the strategy catalog, the app's own phase
//                   names; what the CLI knows of the app (it imports no app module)
//   LaunchImage     PNG decode/encode through libpng (CPNGShim -> CLibPNG), RGBA images, image cache
//   LaunchPipeline  the app-like startup workload: theme XML, layout, drawing, snapshot (its manifest is LaunchManifest)
//   LaunchApp       the built-in app's process: its arguments, phases and protocol (launchprof-app), --check-tap for the CLI
//   LaunchFunctions per-phase function profiles (--functions): the Callgrind format's reader, demangling, function diffs
//   LaunchFlameGraphs  stacks per phase (StackProfile) and their flame graphs: folded stacks, speedscope, SVG, differential
//   LaunchSampling  wall-clock samples (--sample): perf record on CLOCK_MONOTONIC, perf script's reader, samples per phase
//   LaunchTraces    startup-trace readers (--trace): Chrome trace, git's trace2, Python's -X importtime, on the launcher's clock
//   LaunchTiers     device tiers: the tier table, host calibration on CTierReference's fixed C workloads
//                   (never the app's own code: LaunchImage and LaunchPipeline stay out of it); the throttle
//                   that applies a tier to a program from outside (Throttle/: a cgroup v1/v2, or a SIGSTOP/SIGCONT duty cycle)
//   LaunchRunner    launches a program per run (posix_spawn), reads the line protocol, page cache; calls a
//                   tier's throttle (LaunchTiers' RunThrottle) around its spawn
//   LaunchStats     statistics and comparison of results
//   LaunchChangePoints  change points in a series of commits' measurements: E-Divisive means, a rank test (no I/O);
//                   the series' key (environment, tier, metric, target, phase) the history stores them by
//   LaunchResults   the result schema's files: reading (a strict streaming reader and the Codable model, kept
//                   in agreement), writing, the limits, results found by path or git revision (`ResultStore`)
//   LaunchExport    one exporter per format behind the `ResultExporter` protocol
//   LaunchHistory   the results history: a results directory, SQLite (CSQLite, through CHistoryShim) or
//                   PostgreSQL (libpq, opened by CHistoryShim when used); one schema, versioned; series of run values across commits
//   LaunchBisect    `bisect`'s search for the first bad commit and its verdicts (no I/O: the caller measures)
//   LaunchDashboard `history dashboard`'s static site: the series and change points as escaped JSON, SVG drawn by its own script
//   LaunchDoctor    `doctor`'s checks of what makes measurements here noisy, on a machine it reads through a protocol
//   LaunchprofCLI   the command-line tool: one file per subcommand, options, plans (the `launchprof` executable is its main)
//
//   LaunchprofClient  for other programs to report their phases to `launchprof exec` (Glibc only; CCallgrind's C file)
let package = Package(
    name: "launchprof",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "launchprof", targets: ["launchprof"]),
        // The built-in app that `launchprof run` launches: no Foundation, no argument parser.
        .executable(name: "launchprof-app", targets: ["launchprof-app"]),
        .executable(name: "launchprof-spawn", targets: ["launchprof-spawn"]),
        .library(name: "LaunchCore", targets: ["LaunchCore"]),
        // The client library other programs report their phases with (`launchprof exec`): no dependencies.
        .library(name: "LaunchprofClient", targets: ["LaunchprofClient"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // Callgrind client requests for --metric instructions (valgrind/callgrind.h, when installed).
        .target(name: "CCallgrind"),
        // The core's clock probe (a chain of dependent additions, in assembly), read beside the emulated waits.
        .target(name: "CClockChain"),
        .target(name: "LaunchCore", dependencies: ["CCallgrind", "CClockChain"]),
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .target(name: "CPNGShim", dependencies: ["CLibPNG"]),
        .target(name: "LaunchImage", dependencies: ["CPNGShim"]),
        // libxml2's SAX2 parser for themes and data files, with a C shim for its callbacks.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .target(name: "CXMLShim", dependencies: ["CLibXML2"]),
        .target(name: "LaunchManifest", dependencies: ["LaunchCore"]),
        .target(name: "LaunchPipeline", dependencies: ["LaunchCore", "LaunchManifest", "LaunchImage", "CXMLShim"]),
        .target(name: "LaunchApp", dependencies: ["LaunchCore", "LaunchManifest", "LaunchPipeline"]),
        // The Swift runtime linked in (no Foundation either): its process start is then a few ms shorter
        // than a `swiftc -O` hello world's, which loads libswiftCore and its companions (BENCHMARKS.md).
        .executableTarget(
            name: "launchprof-app", dependencies: ["LaunchApp", "LaunchCore"],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux]))]),
        // The small C process `launchprof exec` spawns each program through (its peak memory is then the program's own).
        // Static, and without the Swift runtime swiftc would link into it (spawn.c defines the two symbols
        // swiftrt.o asks for): 0.9 MB, below the smallest program's peak.
        .executableTarget(name: "launchprof-spawn", linkerSettings: [.unsafeFlags(["-static-executable"])]),
        .target(name: "LaunchFunctions", dependencies: ["LaunchCore"]),
        .target(name: "LaunchFlameGraphs", dependencies: ["LaunchCore", "LaunchFunctions"]),
        .target(name: "LaunchSampling", dependencies: ["LaunchCore", "LaunchFunctions", "LaunchFlameGraphs"]),
        .target(name: "LaunchTraces", dependencies: ["LaunchCore"]),
        // The tiers' four fixed reference workloads in plain C, sharing no code with the app (libpng directly).
        .target(name: "CTierReference", dependencies: ["CLibPNG"], linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("m")]),
        .target(name: "LaunchTiers", dependencies: ["LaunchCore", "CTierReference"]),
        .target(name: "LaunchRunner", dependencies: ["LaunchCore", "LaunchFunctions", "LaunchTraces", "LaunchTiers"]),
        .target(name: "LaunchStats", dependencies: ["LaunchCore"]),
        .target(name: "LaunchChangePoints", dependencies: ["LaunchCore", "LaunchStats"]),
        .target(name: "LaunchResults", dependencies: ["LaunchCore", "LaunchStats"]),
        .target(name: "LaunchExport", dependencies: ["LaunchCore", "LaunchStats", "LaunchFunctions", "LaunchChangePoints", "LaunchResults"]),
        // The results history's databases: SQLite (embedded, the default) and PostgreSQL's client library,
        // with a C shim for what Swift cannot call directly (SQLITE_TRANSIENT) and zlib for the stored documents.
        // libpq is not linked: the shim opens it with dlopen for a `postgresql://` store only (its ~24
        // libraries cost every launchprof start about 3 ms otherwise); libpq-fe.h is read for its declarations.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "CHistoryShim", dependencies: ["CSQLite"], linkerSettings: [.linkedLibrary("z")]),
        .target(name: "LaunchHistory", dependencies: ["LaunchCore", "LaunchStats", "LaunchChangePoints", "LaunchResults", "CHistoryShim"]),
        .target(name: "LaunchBisect", dependencies: ["LaunchStats"]),
        .target(name: "LaunchDashboard", dependencies: ["LaunchCore", "LaunchChangePoints", "LaunchExport", "LaunchHistory"]),
        .target(name: "LaunchDoctor", dependencies: ["LaunchCore", "LaunchRunner", "LaunchTiers", "LaunchStats", "LaunchExport"]),
        // The command-line tool's subcommands, options and plans; the executable is its one-line main.
        .target(
            name: "LaunchprofCLI",
            dependencies: [
                "LaunchCore", "LaunchManifest", "LaunchFunctions", "LaunchFlameGraphs", "LaunchSampling", "LaunchTraces", "LaunchRunner", "LaunchTiers",
                "LaunchStats",
                "LaunchChangePoints", "LaunchResults", "LaunchExport", "LaunchDoctor", "LaunchHistory", "LaunchBisect", "LaunchDashboard",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]
        ),
        .executableTarget(
            name: "launchprof",
            dependencies: [
                "LaunchprofCLI",
                // Built with the CLI, so that `swift build --product launchprof` puts the app and the spawner beside it.
                "launchprof-app", "launchprof-spawn"
            ],
            // The Swift runtime and Foundation linked in: an installed launchprof needs nothing of the toolchain (docs/install.md).
            // The modules are compiled against the shared Foundation, whose module does not ask for the static
            // archives Foundation needs (SwiftPM's --static-swift-stdlib would recompile everything): they are named here.
            // Not position-independent: the linker resolves the runtime's and Foundation's ~81,000 relative
            // relocations, which the loader would otherwise apply (writing ~200 pages) at every start
            // (BENCHMARKS.md, "launchprof exec around short programs").
            linkerSettings: [
                .unsafeFlags(["-static-stdlib", "-Xclang-linker", "-no-pie"], .when(platforms: [.linux]))
            ]
                + [
                    "CoreFoundation", "_FoundationICU", "FoundationEssentials", "_FoundationCShims", "_FoundationCollections",
                    "FoundationInternationalization", "swiftSynchronization", "swiftDispatch", "dispatch", "BlocksRuntime", "stdc++"
                ].map { .linkedLibrary($0, .when(platforms: [.linux])) }
        ),
        // Glibc only, no Foundation: it runs in the program being measured. CCallgrind (one small C
        // file, valgrind/callgrind.h when installed) issues its dumps under --metric instructions.
        .target(name: "LaunchprofClient", dependencies: ["CCallgrind"]),
        .executableTarget(name: "launchprof-example-swift", dependencies: ["LaunchprofClient"], path: "Examples/swift"),
        .executableTarget(
            name: "launchprof-bench",
            dependencies: [
                "CPNGShim", "LaunchCore", "LaunchImage", "LaunchManifest", "LaunchPipeline", "LaunchTiers", "LaunchRunner", "LaunchStats", "LaunchResults",
                "LaunchExport",
                "LaunchHistory",
                "LaunchChangePoints", "LaunchBisect", "LaunchDashboard", "LaunchSampling"
            ],
            path: "Benchmarks/launchprof-bench"
        ),
        // What tests share: the built products' location, temporary directories, manifests, the executor double.
        .target(name: "LaunchprofTestSupport", dependencies: ["LaunchCore", "LaunchRunner"], path: "Tests/LaunchprofTestSupport"),
        .testTarget(name: "LaunchCoreTests", dependencies: ["LaunchCore", "LaunchprofTestSupport"]),
        .testTarget(name: "LaunchImageTests", dependencies: ["LaunchImage", "LaunchCore"]),
        .testTarget(name: "LaunchManifestTests", dependencies: ["LaunchManifest", "LaunchCore", "LaunchprofTestSupport"]),
        .testTarget(name: "LaunchPipelineTests", dependencies: ["LaunchPipeline", "LaunchManifest", "LaunchImage", "LaunchCore", "LaunchprofTestSupport"]),
        // The built-in app's start (arguments, environment, --check-tap) and control input, without spawning it.
        .testTarget(name: "LaunchAppTests", dependencies: ["LaunchApp", "LaunchCore", "LaunchprofTestSupport"]),
        .testTarget(name: "LaunchStatsTests", dependencies: ["LaunchStats", "LaunchprofTestSupport"]),
        .testTarget(name: "LaunchFunctionsTests", dependencies: ["LaunchFunctions", "LaunchCore"], exclude: ["Fixtures"]),
        .testTarget(
            name: "LaunchFlameGraphsTests", dependencies: ["LaunchFlameGraphs", "LaunchCore", "LaunchFunctions", "LaunchprofTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "LaunchSamplingTests", dependencies: ["LaunchSampling", "LaunchCore", "LaunchFunctions", "LaunchFlameGraphs", "LaunchprofTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(name: "LaunchChangePointsTests", dependencies: ["LaunchChangePoints", "LaunchStats"]),
        .testTarget(name: "LaunchTracesTests", dependencies: ["LaunchTraces", "LaunchCore", "LaunchprofTestSupport"]),
        .testTarget(name: "LaunchRunnerTests", dependencies: ["LaunchRunner", "LaunchTiers", "LaunchTraces", "LaunchCore", "LaunchprofTestSupport"]),
        // Also the throttle (Throttle/): cgroups need root and a mounted hierarchy, or the tests say why they are skipped.
        .testTarget(name: "LaunchTiersTests", dependencies: ["LaunchTiers", "LaunchCore", "LaunchprofTestSupport"]),
        .testTarget(name: "LaunchResultsTests", dependencies: ["LaunchResults", "LaunchCore", "LaunchStats", "LaunchprofTestSupport"]),
        .testTarget(
            name: "LaunchExportTests",
            dependencies: ["LaunchExport", "LaunchResults", "LaunchCore", "LaunchFunctions", "LaunchChangePoints", "LaunchprofTestSupport"]),
        // Also runs the built launchprof (8 parallel `record --store`, `history detect` on each backend).
        .testTarget(
            name: "LaunchHistoryTests",
            dependencies: ["LaunchHistory", "LaunchChangePoints", "LaunchResults", "LaunchExport", "LaunchCore", "LaunchprofTestSupport"]),
        .testTarget(name: "LaunchBisectTests", dependencies: ["LaunchBisect", "LaunchStats"]),
        .testTarget(
            name: "LaunchDashboardTests", dependencies: ["LaunchDashboard", "LaunchChangePoints", "LaunchHistory", "LaunchCore", "LaunchprofTestSupport"]),
        .testTarget(name: "LaunchDoctorTests", dependencies: ["LaunchDoctor", "LaunchStats", "LaunchCore"]),
        .testTarget(
            name: "LaunchprofCLITests", dependencies: ["LaunchprofCLI", "LaunchCore", "LaunchResults", "LaunchExport", "LaunchRunner", "LaunchprofTestSupport"]),
        // Every launchprof command README.md and docs/ show, parsed by the CLI's own parser.
        .testTarget(name: "LaunchprofDocsTests", dependencies: ["LaunchprofCLI", "LaunchprofTestSupport"]),
        // Also runs the C and Python clients (Programs/: compiled or run by the tests, not Swift sources).
        .testTarget(name: "LaunchprofClientTests", dependencies: ["LaunchprofClient", "LaunchCore", "LaunchprofTestSupport"], exclude: ["Programs"]),
        // Fuzzing (`make fuzz`, Tests/Fuzz): every parser behind one entry point; the executable is a
        // libFuzzer target only when built with -sanitize=fuzzer -DLAUNCHPROF_FUZZ, a file replayer otherwise.
        .target(
            name: "LaunchFuzz",
            dependencies: [
                "LaunchCore", "LaunchImage", "LaunchManifest", "LaunchPipeline", "LaunchTraces", "LaunchRunner", "LaunchTiers", "LaunchStats",
                "LaunchResults", "LaunchExport", "LaunchFunctions", "LaunchSampling"
            ],
            path: "Tests/Fuzz/LaunchFuzz"),
        .executableTarget(name: "launchprof-fuzz", dependencies: ["LaunchFuzz"], path: "Tests/Fuzz/launchprof-fuzz"),
        .testTarget(name: "LaunchFuzzTests", dependencies: ["LaunchFuzz", "LaunchprofTestSupport"], path: "Tests/Fuzz/LaunchFuzzTests")
    ],
    swiftLanguageModes: [.v6]
)
