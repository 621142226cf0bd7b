import LaunchCore

/// Makes a result's ``FunctionProfiles`` from its runs' in-memory profiles: one representative run
/// (the median launch count; instruction counts repeat), its phases by path (phases that share a
/// path added up), names demangled, each function marked as the program's or a system library's.
public enum FunctionSummary {
    /// The profiles of `runs`, or `nil` when none of them has one.
    public static func profiles(_ runs: [RunRecord], demangler: Demangler = .onPath()) -> FunctionProfiles? {
        guard let run = representativeRun(runs), let profile = run.functionProfile else { return nil }
        let byPath = phasesByPath(run, profile)
        let names = demangler.demangle(byPath.flatMap { $0.entries.map(\.name) })
        let phases = byPath.map { phase in
            let costs = phase.entries.map { entry in
                FunctionCost<InstructionUnit>(
                    name: readableName(entry, names),
                    inProgram: FunctionOrigin.isProgram(name: entry.name, object: entry.object, programObject: profile.programObject),
                    selfCost: entry.selfInstructions, inclusiveCost: entry.inclusiveInstructions, calls: entry.calls)
            }
            return PhaseFunctions(
                phase: phase.path, total: phase.instructions,
                functions: FunctionProfiles.kept(FunctionCost.ranked(costs), phaseInstructions: phase.instructions), functionCount: costs.count)
        }
        return FunctionProfiles(run: run.index, phases: phases)
    }

    /// The run with a function profile whose launch count is the median (the lower one of two; by index on ties).
    static func representativeRun(_ runs: [RunRecord]) -> RunRecord? {
        let profiled = runs.filter { $0.functionProfile != nil }.sorted { ($0.instructions ?? 0, $0.index) < ($1.instructions ?? 0, $1.index) }
        return profiled.isEmpty ? nil : profiled[(profiled.count - 1) / 2]
    }

    /// Each phase's path (`drawing/keys`): its name after its parents'.
    static func paths(_ phases: [PhaseRecord]) -> [String] {
        var paths: [String] = []
        for phase in phases {
            paths.append(phase.parent.flatMap { $0 >= 0 && $0 < paths.count ? paths[$0] + "/" + phase.name : nil } ?? phase.name)
        }
        return paths
    }

    /// `entry`'s name demangled; an address without a symbol (`0x…aa60`, a stripped library's)
    /// prefixed with its object's file name (`libz.so.1 0x…aa60`).
    static func readableName(_ entry: RunFunctionProfile.Entry, _ names: [String: String]) -> String {
        readableName(entry.name, object: entry.object, names)
    }

    static func readableName(_ name: String, object: String, _ names: [String: String]) -> String {
        if name.hasPrefix("0x"), let file = object.split(separator: "/").last { return "\(file) \(name)" }
        return names[name] ?? name
    }

    /// The run's profiled phases by path, in the order they first ran; phases sharing a path added up.
    static func phasesByPath(_ run: RunRecord, _ profile: RunFunctionProfile) -> [(path: String, instructions: Int, entries: [RunFunctionProfile.Entry])] {
        let paths = paths(run.phases)
        var order: [String] = []
        var merged: [String: (instructions: Int, entries: [String: RunFunctionProfile.Entry])] = [:]
        for (i, phase) in run.phases.enumerated() {
            let path = paths[i]
            guard i < profile.phases.count, let entries = profile.phases[i] else { continue }
            if merged[path] == nil { order.append(path) }
            var slot = merged[path] ?? (0, [:])
            slot.instructions = CallgrindProfile.Costs.sum(slot.instructions, phase.instructions ?? 0)
            for entry in entries {
                let key = entry.object + "\u{0}" + entry.name
                if var known = slot.entries[key] {
                    known.selfInstructions = CallgrindProfile.Costs.sum(known.selfInstructions, entry.selfInstructions)
                    known.inclusiveInstructions = CallgrindProfile.Costs.sum(known.inclusiveInstructions, entry.inclusiveInstructions)
                    known.calls = CallgrindProfile.Costs.sum(known.calls, entry.calls)
                    slot.entries[key] = known
                } else {
                    slot.entries[key] = entry
                }
            }
            merged[path] = slot
        }
        return order.compactMap { path in merged[path].map { (path, $0.instructions, Array($0.entries.values)) } }
    }
}

/// Whether a function is the measured program's own code or a system library's.
public enum FunctionOrigin {
    /// Library file names (without their version) that are the system's, wherever they are installed.
    static let systemLibraries = [
        "libc.so", "libm.so", "ld-linux", "libpthread", "libdl.so", "librt.so", "libstdc++", "libgcc_s", "libswift", "libFoundation",
        "lib_FoundationICU", "libdispatch", "libBlocksRuntime", "libpng", "libxml2", "libz.so", "liblzma", "libicu", "libpython", "vgpreload"
    ]

    /// `true` for the program's code: a function in the program's object file or in an object outside
    /// the system's libraries, unless it is the Swift runtime or standard library linked into the
    /// program (`-static-stdlib`: its mangled names start `$ss`/`$sS`, its C and C++ ones `swift_`/`swift::`).
    public static func isProgram(name: String, object: String, programObject: String?) -> Bool {
        if isSwiftRuntime(name) { return false }
        if let programObject, object == programObject { return true }
        let file = object.split(separator: "/").last.map(String.init) ?? object
        if systemLibraries.contains(where: { file.hasPrefix($0) }) { return false }
        let systemDirectories = ["/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "/usr/libexec/valgrind/"]
        return !systemDirectories.contains { object.hasPrefix($0) }
    }

    static func isSwiftRuntime(_ name: String) -> Bool {
        name.hasPrefix("$ss") || name.hasPrefix("$sS") || name.hasPrefix("$s5Swift") || name.hasPrefix("swift_") || name.contains("swift::")
            || name.hasPrefix("_swift_") || name.hasPrefix("__swift")
    }
}
