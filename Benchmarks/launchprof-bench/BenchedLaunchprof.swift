import Foundation

/// The launchprof every benchmark measures: `LAUNCHPROF` in the environment, or the release build
/// (`swift build -c release --product launchprof`, as `make bench` makes it).
let benchedLaunchprof = ProcessInfo.processInfo.environment["LAUNCHPROF"] ?? ".build/release/launchprof"
