import LaunchCore
import Testing

@testable import LaunchSampling

/// The reader on a recorded `perf script` (Fixtures/app.perf-script: three launches of the built-in
/// app sampled at 999 Hz by `perf record -e cpu-clock -k CLOCK_MONOTONIC -g -p <parent>`) and on hostile input.
struct PerfScriptReaderTests {
    static var fixture: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/") + "/Fixtures/app.perf-script"
    }

    static func samples(_ text: String) throws(SamplingError) -> [PerfSample] {
        try PerfScriptReader.samples(Array(text.utf8), file: "t.txt")
    }

    static func error(_ text: String) -> String? {
        do {
            _ = try samples(text)
            return nil
        } catch { return error.description }
    }

    @Test func recordedFixtureGivesEverySampleWithItsChain() throws {
        var samples: [PerfSample] = []
        try PerfScriptReader.read(path: Self.fixture, limit: 1 << 20) { samples.append($0) }
        #expect(samples.count == 32)
        #expect(Dictionary(grouping: samples, by: \.pid).mapValues(\.count) == [9201: 2, 9307: 11, 9309: 9, 9312: 10])
        let first = try #require(samples.first)
        #expect(first.pid == 9307 && first.tid == 9307)
        #expect(first.nanoseconds == 20_329_049_769_838)
        #expect(first.frames.count == 11)
        #expect(first.frames[0] == PerfFrame(address: 0xffff_ffff_816d_0603, symbol: "step_into", object: "[kernel.kallsyms]"))
        #expect(first.frames[0].isKernel)
        #expect(first.frames.last?.isUnknown == true)
        // A Swift frame keeps its mangled name (perf runs with --no-demangle) and the app's path.
        let swift = try #require(samples.flatMap(\.frames).first { $0.symbol?.hasPrefix("$s14LaunchPipeline6CanvasV4blit") == true })
        #expect(swift.object == "/tmp/sample-scratch/launchprof-app")
        // Times only grow within a process.
        for pid in Set(samples.map(\.pid)) {
            let times = samples.filter { $0.pid == pid }.map(\.nanoseconds)
            #expect(times == times.sorted())
        }
    }

    @Test func readingLimitIsChecked() {
        #expect(throws: SamplingError.self) { try PerfScriptReader.read(path: Self.fixture, limit: 1000) { _ in } }
    }

    @Test func framesWithSpacesParenthesesAndNoSymbolAreRead() throws {
        let text = """
             12/13  5.000000001: cpu-clock:
            \t  401000 operator()(int) const (/opt/my app/bin/tool (1))
            \t  7f00 [unknown] (/usr/lib/libpng16.so.16)
            \t  10 (/usr/lib/x.so)

            -1/-1  6.5:
            \t  0 [unknown] ([unknown])
            """
        let samples = try Self.samples(text)
        #expect(samples.count == 2)
        #expect(samples[0].frames[0] == PerfFrame(address: 0x401000, symbol: "operator()(int) const", object: "/opt/my app/bin/tool (1)"))
        #expect(samples[0].frames[1] == PerfFrame(address: 0x7f00, symbol: nil, object: "/usr/lib/libpng16.so.16"))
        #expect(samples[0].frames[2] == PerfFrame(address: 0x10, symbol: nil, object: "/usr/lib/x.so"))
        #expect(samples[0].nanoseconds == 5_000_000_001)
        #expect(samples[1].pid == -1 && samples[1].nanoseconds == 6_500_000_000)
        #expect(samples[1].frames[0].isUnknown)
    }

    @Test func hostileInputIsAnErrorNamingTheLine() {
        #expect(Self.error("\t  401000 main (/bin/x)\n") == "t.txt:1: a frame before any sample's header")
        #expect(Self.error(" 12/13  5.0:\n\t  zz main (/bin/x)\n")?.hasPrefix("t.txt:2: expected a frame's hexadecimal address") == true)
        #expect(Self.error(" 12/13  5.0:\n\t  4010 main\n") == "t.txt:2: expected a frame's '(object)' at the end of the line")
        #expect(Self.error(" 12/13  5.0:\n\t  40100000000000000000 main (/x)\n")?.hasPrefix("t.txt:2: expected a frame's hexadecimal") == true)
        #expect(Self.error("hello world\n")?.hasPrefix("t.txt:1: expected a sample's 'pid/tid time:'") == true)
        #expect(Self.error(" 12/x  5.0:\n") == "t.txt:1: 'x' is not a thread id")
        #expect(Self.error(" 12/13  5.0\n") == "t.txt:1: expected a sample's time 'seconds.nanoseconds:' after its thread id")
        #expect(Self.error(" 12/13  5.0000000001:\n") == "t.txt:1: expected a sample's time 'seconds.nanoseconds:' after its thread id")
        #expect(Self.error(" 99999999999/13  5.0:\n")?.hasPrefix("t.txt:1: expected a sample's") == true)
        #expect(Self.error(" 12/13  99999999999.0:\n") != nil)
        let long = " 1/1 1.0:\n\t 10 " + String(repeating: "x", count: PerfScriptReader.maximumLineBytes + 10) + " (/x)\n"
        #expect(Self.error(long) == "t.txt:2: a line longer than 65536 bytes")
        let deep = " 1/1 1.0:\n" + String(repeating: "\t 10 f (/x)\n", count: PerfScriptReader.maximumFrames + 1)
        #expect(Self.error(deep) == "t.txt:\(PerfScriptReader.maximumFrames + 2): a sample with more than 1024 frames")
        // Bytes that are not UTF-8 are read, replaced, and never crash.
        let garbage: [UInt8] = Array(" 1/1 1.0:\n\t 10 ".utf8) + [0xFF, 0xFE, 0x00] + Array(" (/x)\n".utf8)
        #expect((try? PerfScriptReader.samples(garbage, file: "g"))?.count == 1)
    }

    @Test func lastLineWithoutNewlineAndCarriageReturnsAreRead() throws {
        let samples = try Self.samples(" 1/2  3.25:\r\n\t 10 f (/x)\r\n\r\n 1/2  3.5:\n\t 11 g (/x)")
        #expect(samples.map(\.nanoseconds) == [3_250_000_000, 3_500_000_000])
        #expect(samples.map { $0.frames.first?.symbol } == ["f", "g"])
    }
}
