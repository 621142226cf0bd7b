import ArgumentParser

/// `--runs N` or `--runs auto`: a fixed number of measured runs, or as many as a comparison needs.
enum RunCount: Equatable, Sendable, ExpressibleByArgument {
    case fixed(Int)
    case auto

    /// The range of a fixed count (docs/limits.md): at least one run, and no more than a day's worth of quick launches.
    static var range: ClosedRange<Int> { OptionRanges.runs.range }

    init?(argument: String) {
        guard let count = try? Self.parse(argument) else { return nil }
        self = count
    }

    /// Reads `auto` or a whole number within ``range``; anything else is an error naming the range.
    @Sendable static func parse(_ argument: String) throws -> RunCount {
        if argument == "auto" { return .auto }
        guard let n = Int(argument), range.contains(n) else {
            throw InputError.usage(OptionRanges.runs.outOfRange(orAuto: true))
        }
        return .fixed(n)
    }

    static var defaultCompletionKind: CompletionKind { .list(["auto"]) }
}
