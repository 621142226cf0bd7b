import ArgumentParser

/// Output formats of `run` and `report`.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}
