import Foundation
import LaunchFuzz

/// `launchprof-fuzz`: built by `make fuzz` with `-sanitize=fuzzer,address -DLAUNCHPROF_FUZZ` it is a
/// libFuzzer binary fuzzing the parser named by `LAUNCHPROF_FUZZ_TARGET` (libFuzzer options as
/// arguments). In the normal build it replays files: `launchprof-fuzz <target> <file>…` prints each
/// file's outcome, so a crashing input can be rerun under a debugger without the sanitizers.
@main
struct FuzzMain {
    static func main() {
        #if LAUNCHPROF_FUZZ
        exit(runLibFuzzer())
        #else
        replay()
        #endif
    }

    static func usage(_ text: String) -> Never {
        FileHandle.standardError.write(Data("launchprof-fuzz: \(text)\n".utf8))
        exit(2)
    }

    static var targetNames: String { FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ") }

    static func replay() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            usage("usage: launchprof-fuzz <target> <file>… (targets: \(targetNames))")
        }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else { usage("cannot read \(path)") }
            switch target.run(Array(data)) {
            case .value: print("\(path): value")
            case .error(let message): print("\(path): error: \(message)")
            }
        }
    }
}

#if LAUNCHPROF_FUZZ
/// The parser this process fuzzes, set once before libFuzzer starts.
nonisolated(unsafe) private var selected = FuzzTarget.theme

/// libFuzzer's driver (the body of its own `main`), from the fuzzer runtime `-sanitize=fuzzer` links.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// libFuzzer's entry point: one input per call.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    _ = selected.run(bytes)
    return 0
}

extension FuzzMain {
    static func runLibFuzzer() -> Int32 {
        let name = ProcessInfo.processInfo.environment["LAUNCHPROF_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else { usage("set LAUNCHPROF_FUZZ_TARGET to one of: \(targetNames)") }
        selected = target
        // The target's own -max_len unless one is given.
        var arguments = CommandLine.arguments
        if !arguments.contains(where: { $0.hasPrefix("-max_len=") }) {
            arguments.insert("-max_len=\(target.maxLength)", at: min(1, arguments.count))
        }
        var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var argc = Int32(arguments.count)
        return pointers.withUnsafeMutableBufferPointer { buffer in
            var argv = buffer.baseAddress!
            return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzTestOneInput(data, size) }
        }
    }
}
#endif
