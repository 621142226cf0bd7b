import Testing
@testable import LaunchRunner
import LaunchCore
#if canImport(Glibc)
import Glibc
#endif

/// `--ready-when-output` patterns: their size with repetitions written out is measured before
/// `regcomp` (and refused past the limit), and lines are tested on a thread the read loop never waits on.
@Suite struct ReadyPatternTests {
    @Test(arguments: [
        ("abc", 3), ("ab{3}", 4), ("(ab){3}", 6), ("a+", 2), ("a*b?", 2), ("a|bc", 3), ("[a{9}]{2}", 2),
        ("[]x{9}]", 1), ("[[:digit:]]{1,5}", 5), ("x{3,}", 4), ("\\{9}", 3), ("(a(b){10}){10}", 110),
        ("{", 1), ("((a)", 1)
    ])
    func sizesWithRepetitionsWrittenOut(_ pattern: String, _ atoms: Int) {
        #expect(PatternSize.of(pattern.utf8).atoms == atoms, "\(pattern)")
    }

    @Test(arguments: [
        ("abc", 0), ("a?", 1), ("a*b?", 2), ("a{2,5}", 3), ("a{3}", 0), ("a{2,}", 1), ("a+", 1), ("()", 1), ("(a|)", 1),
        ("(|a)", 1), ("(a?){10}", 10), ("a{0,3}", 3), ("(()){4}", 4), ("((a|)*){3}", 6), ("[?*]", 0), ("\\?", 0), ("\\??", 1)
    ])
    func partsThatCanMatchNothingWithRepetitionsWrittenOut(_ pattern: String, _ count: Int) {
        #expect(PatternSize.of(pattern.utf8).emptyMatches == count, "\(pattern)")
    }

    @Test(arguments: [("^ready$", 2), ("\\bx\\b", 2), ("\\<a\\>|\\`b\\'", 4), ("[$^]", 0), ("\\\\b", 0), ("a\\Bb", 1)])
    func anchorsAreCounted(_ pattern: String, _ count: Int) {
        #expect(PatternSize.of(pattern.utf8).anchors == count, "\(pattern)")
    }

    /// Refused with `reason` before regcomp (each of these ran for more than 10 s in regcomp): the refusal
    /// names the limit, which only the size check before compiling writes, so no clock is needed.
    static func expectRefused(_ pattern: String, because reason: String) {
        #expect {
            _ = try ExtendedRegex(pattern)
        } throws: { error in
            guard case RunnerError.invalidPattern(_, let refusal) = error else { return false }
            return refusal.contains(reason) && refusal.contains("docs/limits.md")
        }
    }

    @Test(arguments: ["(\\b|\\B|^|$)*", "((\\b)*){16}", "(^a)+", "(x\\b){2}", "(\\b(a?){8}){64}", "((\\b|a|)*){12}", "(\\<)?"])
    func aRepeatedAnchorIsRefused(_ pattern: String) {
        Self.expectRefused(pattern, because: "it repeats an anchor")
    }

    @Test(arguments: ["(a?){10000}", "((a|)*){512}", "a{0,3000}", "(()){1000}", "(a?b?c?d?e?f?g?h?i?j?){51}"])
    func tooManyPartsThatCanMatchNothingAreRefused(_ pattern: String) {
        Self.expectRefused(pattern, because: "parts that can match nothing (x?, x*, x{0,n}, (x|), ()), more than the limit of 500")
    }

    @Test func tooManyAnchorsAreRefused() {
        Self.expectRefused(String(repeating: "\\b(a?){30}\\B(a?){30}", count: 8), because: "it has 16 anchors")
        Self.expectRefused(String(repeating: "(\\b|\\B|^|$)", count: 3), because: "it has 12 anchors")
    }

    @Test(arguments: [
        "^ready$", "^(foo|bar)$|\\bbaz\\b", "(a?){500}", "\\b(a?){120}\\B(a?){120}^(a?){120}$(a?){120}",
        "^[[:space:]]*([a-z]+:)? *listening( on)? [0-9.]+:[0-9]+$"
    ])
    func patternsWithinTheEmptyMatchAndAnchorLimitsCompile(_ pattern: String) throws {
        _ = try ExtendedRegex(pattern)
    }

    @Test(arguments: ["x{32767}{32767}", "(x{1000}){101}", "((((a{10}){10}){10}){10}){11}", "(a|b+){60000}", "x{99999999999999999999}"])
    func patternsPastTheLimitAreRefusedBeforeRegcomp(_ pattern: String) {
        #expect {
            _ = try ExtendedRegex(pattern)
        } throws: { error in
            guard case RunnerError.invalidPattern(_, let reason) = error else { return false }
            return reason.hasPrefix("its repetitions written out make ") && reason.contains("more than the limit of 100000")
        }
        // The size check's own reason: refused before regcomp (which took 9 s and 4 GiB for the first).
    }

    @Test(arguments: ["Listening on port [0-9]{1,5}", "x{30000}y{30000}", "(ab|cd){25000}", "^ready$"])
    func patternsWithinTheLimitCompile(_ pattern: String) throws {
        _ = try ExtendedRegex(pattern)
    }

    @Test func aMatcherReportsTheReadingOfTheFirstMatchingLine() throws {
        let matcher = try #require(ReadyMatcher(try ExtendedRegex("^ready")))
        defer { matcher.stop() }
        matcher.submit(Array("not yet".utf8), reading: 10)
        matcher.submit(Array("ready now".utf8), reading: 20)
        matcher.submit(Array("ready again".utf8), reading: 30)
        #expect(matcher.waitForVerdict(until: MonotonicClock.nanoseconds() + 5_000_000_000) == 20)
        var entry = pollfd(fd: matcher.matchDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&entry, 1, 0) == 1)
    }

    @Test func aMatchThatNeverEndsIsAbandonedAtTheDeadline() throws {
        // Exponential in glibc: minutes on a line of 3,000 characters.
        let matcher = try #require(ReadyMatcher(try ExtendedRegex(#"(.*)(.*)(.*)\3\2\1x"#)))
        matcher.submit(Array(String(repeating: "a", count: 3000).utf8), reading: 1)
        let start = MonotonicClock.nanoseconds()
        #expect(matcher.waitForVerdict(until: start + 300_000_000) == nil)
        #expect(!matcher.isIdle)
        #expect(MonotonicClock.nanoseconds() - start < 2_000_000_000)
        matcher.stop()
    }

    @Test func everyQueuedLineIsTestedWhenNoneMatches() throws {
        let matcher = try #require(ReadyMatcher(try ExtendedRegex("^never$")))
        defer { matcher.stop() }
        for i in 0..<1000 { matcher.submit(Array("line \(i)".utf8), reading: UInt64(i)) }
        #expect(matcher.waitForVerdict(until: MonotonicClock.nanoseconds() + 5_000_000_000) == nil)
        #expect(matcher.isIdle)
    }
}
