import ArgumentParser

/// Output formats of `diff` and `check`.
enum ComparisonFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case markdown
    case json
}
