#if canImport(Glibc)
import Glibc
#endif

/// A POSIX extended regular expression (the syntax of `grep -E`), compiled once with `regcomp`
/// and matched against lines with `regexec` (safe from several threads on one compiled pattern).
public final class ExtendedRegex: @unchecked Sendable {
    /// The pattern as the user wrote it.
    public let pattern: String
    private let compiled: UnsafeMutablePointer<regex_t>

    /// The longest pattern accepted (a pattern is typed by a person; longer ones only cost time).
    public static let maximumPatternLength = 4096

    /// Compiles `pattern`.
    ///
    /// - Throws: ``RunnerError/invalidPattern(pattern:reason:)`` for a pattern `regcomp` refuses,
    ///   one over ``maximumPatternLength``, one with a NUL character, or one over a limit of
    ///   ``PatternSize`` (atoms and parts that can match nothing with its repetitions written out,
    ///   anchors, a repeated anchor: checked before `regcomp`, whose time and memory grow with them).
    public init(_ pattern: String) throws(RunnerError) {
        guard pattern.utf8.count <= Self.maximumPatternLength else {
            throw .invalidPattern(pattern: pattern, reason: "longer than \(Self.maximumPatternLength) bytes")
        }
        guard !pattern.utf8.contains(0) else { throw .invalidPattern(pattern: pattern, reason: "it contains a NUL character") }
        if let refusal = PatternSize.of(pattern.utf8).refusal { throw .invalidPattern(pattern: pattern, reason: refusal) }
        // Compiled before any stored property is set: a throwing initializer then runs no deinit.
        let compiled = UnsafeMutablePointer<regex_t>.allocate(capacity: 1)
        let status = regcomp(compiled, pattern, REG_EXTENDED | REG_NOSUB)
        if status != 0 {
            var message = [CChar](repeating: 0, count: 256)
            regerror(status, compiled, &message, message.count)
            compiled.deallocate()
            throw .invalidPattern(pattern: pattern, reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.pattern = pattern
        self.compiled = compiled
    }

    deinit {
        regfree(compiled)
        compiled.deallocate()
    }

    /// Whether the pattern matches somewhere in `line` (bytes without the newline; a NUL ends the
    /// text `regexec` sees, as it would for `grep`).
    public func matches(_ line: some Collection<UInt8>) -> Bool {
        var text = Array(line.prefix { $0 != 0 })
        text.append(0)
        return text.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { regexec(compiled, $0, 0, nil, 0) == 0 }
        }
    }
}
