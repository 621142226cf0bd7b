/// A result's call stacks per phase, for flame graphs (docs/flame-graphs.md): from `--functions`
/// (Callgrind's call graph of one representative run, stacks reconstructed, weights in instructions)
/// or from samples.
///
/// In a result file it is compact: every frame name once in ``frames``; a phase's stacks one string,
/// sorted by their frame indices, each stack `weight shared frame frame…` (``shared`` frames taken
/// from the stack before it, then its own), stacks separated by `,`: `"1200 0 0 4 9,300 2 11"` is
/// 1200 in `frames[0];frames[4];frames[9]` and 300 in `frames[0];frames[4];frames[11]`.
public struct ResultStacks: Codable, Equatable, Sendable {
    /// The most stacks a result keeps per phase (the heaviest).
    public static let maximumStacksPerPhase = 4000
    /// The most frames a stack keeps (deeper ones are cut there).
    public static let maximumDepth = 256
    /// The longest a phase's stacks may be written (a JSON string of a result is at most 1 MiB):
    /// past it, the lightest stacks are left out.
    public static let maximumEncodedBytes = 900_000

    /// The run (1-based ``RunRecord/index``) the stacks are from.
    public var run: Int
    /// What a weight counts: `instructions`, `samples` or `nanoseconds`.
    public var unit: String
    /// `true` when the stacks were reconstructed from a call graph (each callee's cost split among its
    /// callers in proportion to their calls' costs), `false` for stacks recorded as they were (samples).
    public var reconstructed: Bool
    /// The frames' names.
    public var frames: [String]
    public var phases: [Phase]

    /// One phase's stacks.
    public struct Phase: Codable, Equatable, Sendable {
        /// The phase's path (`drawing/keys`).
        public var phase: String
        /// The stacks, sorted by their frames.
        public var stacks: [Stack]

        public init(phase: String, stacks: [Stack]) {
            self.phase = phase
            self.stacks = stacks.sorted { Self.precedes($0.frames, $1.frames) }
        }

        /// `a` before `b` in lexicographic order (a loop over integers: the generic one is slow in debug builds).
        static func precedes(_ a: [Int], _ b: [Int]) -> Bool {
            for i in 0..<min(a.count, b.count) where a[i] != b[i] { return a[i] < b[i] }
            return a.count < b.count
        }

        /// How many first frames `a` and `b` share.
        static func sharedCount(_ a: [Int], _ b: [Int]) -> Int {
            var i = 0
            while i < a.count, i < b.count, a[i] == b[i] { i += 1 }
            return i
        }

        enum CodingKeys: String, CodingKey { case phase, stacks }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            phase = try container.decode(String.self, forKey: .phase)
            let text = try container.decode(String.self, forKey: .stacks)
            do { stacks = try Self.decode(text) } catch {
                throw DecodingError.dataCorruptedError(forKey: .stacks, in: container, debugDescription: "phase '\(phase)': \(error.reason)")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(phase, forKey: .phase)
            try container.encode(Self.encode(stacks), forKey: .stacks)
        }

        /// The stacks as their string: front-coded, each `weight shared frame…`, joined by `,`; the
        /// lightest left out while it is longer than ``ResultStacks/maximumEncodedBytes``.
        static func encode(_ stacks: [Stack]) -> String {
            var kept = stacks
            while true {
                var out = ""
                var previous: [Int] = []
                for stack in kept {
                    let shared = sharedCount(previous, stack.frames)
                    if !out.isEmpty { out += "," }
                    out += "\(stack.weight) \(shared)"
                    for frame in stack.frames[shared...] { out += " \(frame)" }
                    previous = stack.frames
                }
                if out.utf8.count <= ResultStacks.maximumEncodedBytes || kept.count <= 1 { return out }
                let lightest = kept.map(\.weight).sorted()[kept.count / 4]
                kept = kept.filter { $0.weight > lightest }
            }
        }

        struct Malformed: Error { var reason: String }

        /// The stacks of their string (``encode(_:)``), every number checked.
        static func decode(_ text: String) throws(Malformed) -> [Stack] {
            var stacks: [Stack] = []
            var previous: [Int] = []
            for (index, item) in text.split(separator: ",", omittingEmptySubsequences: false).enumerated() where !(text.isEmpty && index == 0) {
                let numbers = item.split(separator: " ").map { Int($0) }
                guard numbers.count >= 2, numbers.allSatisfy({ $0 != nil && $0! >= 0 }) else {
                    throw Malformed(reason: "stack \(index + 1) is not 'weight shared frame...' in numbers of 0 or more")
                }
                let values = numbers.map { $0! }
                let shared = values[1]
                guard shared <= previous.count else {
                    throw Malformed(reason: "stack \(index + 1) shares \(shared) frames with a stack of \(previous.count)")
                }
                let frames = Array(previous.prefix(shared)) + values.dropFirst(2)
                guard !frames.isEmpty, frames.count <= ResultStacks.maximumDepth else {
                    throw Malformed(reason: "stack \(index + 1) has \(frames.count) frames: 1 to \(ResultStacks.maximumDepth)")
                }
                stacks.append(Stack(weight: values[0], frames: frames))
                previous = frames
            }
            return stacks
        }
    }

    /// One stack: its frames (indices into ``ResultStacks/frames``), root first, and its weight.
    public struct Stack: Equatable, Sendable {
        public var weight: Int
        public var frames: [Int]

        public init(weight: Int, frames: [Int]) {
            self.weight = weight
            self.frames = frames
        }
    }

    public init(run: Int, unit: String, reconstructed: Bool, frames: [String], phases: [Phase]) {
        self.run = run
        self.unit = unit
        self.reconstructed = reconstructed
        self.frames = frames
        self.phases = phases
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        run = try container.decode(Int.self, forKey: .run)
        unit = try container.decode(String.self, forKey: .unit)
        reconstructed = try container.decode(Bool.self, forKey: .reconstructed)
        frames = try container.decode([String].self, forKey: .frames)
        phases = try container.decode([Phase].self, forKey: .phases)
        guard [InstructionUnit.name, SampleUnit.name, "nanoseconds"].contains(unit) else {
            throw DecodingError.dataCorruptedError(
                forKey: .unit, in: container, debugDescription: "expected \"instructions\", \"samples\" or \"nanoseconds\", found \"\(unit)\"")
        }
        for phase in phases {
            for stack in phase.stacks where stack.frames.contains(where: { $0 >= frames.count }) {
                throw DecodingError.dataCorruptedError(
                    forKey: .phases, in: container,
                    debugDescription: "phase '\(phase.phase)': a stack names frame \(stack.frames.max() ?? 0), and there are \(frames.count) frames")
            }
        }
    }

    /// The stacks of the phase at `path`, if there are any.
    public func phase(_ path: String) -> Phase? {
        phases.first { $0.phase == path }
    }
}
