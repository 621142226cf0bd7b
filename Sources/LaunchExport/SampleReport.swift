import LaunchCore

/// The words of wall-clock samples (`--sample`, docs/sampling.md): the top functions under a phase's
/// line and the line that says how the samples were taken.
public enum SampleReport {
    /// `      41 samples  34.2%  Canvas.blit(_:at:x:y:)  (52 inclusive)`: the `top` functions of
    /// `phase` with the most self samples, indented under a phase line of `depth`.
    public static func topLines(_ phase: PhaseSamples?, top: Int, depth: Int) -> [String] {
        guard let phase else { return [] }
        let indent = String(repeating: "  ", count: depth + 2)
        return phase.functions.prefix(max(0, top)).filter { $0.selfSamples > 0 }.map { function in
            "\(indent)\(samples(function.selfSamples)) self  \(FunctionReport.share(function.selfSamples, of: phase.samples))  "
                + "\(PlainText.clipped(function.name, limit: FunctionReport.nameLimit))\(function.inProgram ? "" : " [system]")  (\(TextReportExporter.grouped(function.inclusiveSamples)) inclusive)"
        }
    }

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
