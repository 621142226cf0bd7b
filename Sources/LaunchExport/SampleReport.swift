import LaunchCore

/// The words of wall-clock samples (`--sample`, docs/sampling.md) beside the top functions under a
/// phase's line (``FunctionReport/topLines(_:top:depth:)``, in samples): the line that says how the
/// samples were taken.
public enum SampleReport {
    /// `1 sample`, `2,490 samples`.
    static func samples(_ count: Int) -> String {
        "\(TextReportExporter.grouped(count)) sample\(count == 1 ? "" : "s")"
    }

    /// `Samples: 1,234 at 1000 Hz of CPU time (cpu-clock) in 10 runs, 12 of the launched process outside its phases`.
    public static func summaryLine(_ profiles: SampleProfiles) -> String {
        var line = "Samples: \(TextReportExporter.grouped(profiles.samples)) at \(profiles.rate) Hz of CPU time (\(PlainText.oneLine(profiles.event)))"
        line += " in \(profiles.runs) run\(profiles.runs == 1 ? "" : "s")"
        if profiles.outsidePhases > 0 { line += ", \(TextReportExporter.grouped(profiles.outsidePhases)) of the launched process outside its phases" }
        return line
    }
}
