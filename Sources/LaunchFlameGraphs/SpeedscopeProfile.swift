import LaunchCore

/// A speedscope profile (https://www.speedscope.app, its file format
/// https://www.speedscope.app/file-format-schema.json): one `sampled` profile per flame graph, each
/// stack a sample whose weight is its instructions, samples or nanoseconds, the frames shared.
public enum SpeedscopeProfile {
    public static let schemaURL = "https://www.speedscope.app/file-format-schema.json"

    /// The JSON text of `phases` (the first is the one speedscope opens), named `name`.
    public static func json(_ phases: [PhaseStacks], unit: StackProfile.Unit, name: String) -> String {
        var frames: [String] = []
        var numbers: [String: Int] = [:]
        var profiles: [String] = []
        for phase in phases {
            let stacks = phase.merged().stacks
            var samples: [String] = []
            var weights: [String] = []
            for stack in stacks {
                let indices = stack.frames.map { frame in
                    if let known = numbers[frame] { return known }
                    numbers[frame] = frames.count
                    frames.append(frame)
                    return frames.count - 1
                }
                samples.append("[" + indices.map(String.init).joined(separator: ",") + "]")
                weights.append(String(stack.weight))
            }
            profiles.append(
                "{\"type\":\"sampled\",\"name\":\(JSONText.quoted(phase.phase)),\"unit\":\(JSONText.quoted(valueUnit(unit))),"
                    + "\"startValue\":0,\"endValue\":\(phase.totalWeight),"
                    + "\"samples\":[\(samples.joined(separator: ","))],\"weights\":[\(weights.joined(separator: ","))]}")
        }
        let frameList = frames.map { "{\"name\":\(JSONText.quoted($0))}" }.joined(separator: ",")
        return "{\"$schema\":\(JSONText.quoted(schemaURL)),\"name\":\(JSONText.quoted(name)),\"exporter\":\"launchprof\",\"activeProfileIndex\":0,"
            + "\"shared\":{\"frames\":[\(frameList)]},\n\"profiles\":[\n\(profiles.joined(separator: ",\n"))\n]}\n"
    }

    /// speedscope's unit for ours: it has no unit for instructions or sample counts (`none`).
    static func valueUnit(_ unit: StackProfile.Unit) -> String {
        unit == .nanoseconds ? "nanoseconds" : "none"
    }
}
