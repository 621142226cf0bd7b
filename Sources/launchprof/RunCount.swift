import ArgumentParser

/// `--runs N` or `--runs auto`: a fixed number of measured runs, or as many as a comparison needs.
enum RunCount: Equatable, ExpressibleByArgument {
    case fixed(Int)
    case auto

    /// The range of a fixed count: at least one run, and no more than a day's worth of quick launches.
    static let range = 1...10_000

    init?(argument: String) {
        if argument == "auto" {
            self = .auto
        } else if let n = Int(argument), Self.range.contains(n) {
            self = .fixed(n)
        } else {
            return nil
        }
    }

    static var defaultCompletionKind: CompletionKind { .list(["auto"]) }
}
