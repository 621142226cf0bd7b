/// What makes glibc's `regcomp` slow in a POSIX extended regular expression, measured before it runs,
/// by a single pass over the pattern without recursion.
///
/// - Repetitions written out: glibc copies the operand of `a{m,n}` n times (and `a+` as `aa*`), so
///   nested counts multiply (`x{32767}{32767}` is a billion copies: seconds and gigabytes).
/// - Pieces that can match the empty string (`x?`, `x*`, `x{0,n}`, `()`, `(x|)`): each is an epsilon
///   path, and the epsilon closures glibc computes (`calc_eclosure_iter`) grow with the square of a
///   run of them (`(a?){10000}` took 2 s; `(a?){100000}` would take minutes).
/// - Anchors (`^ $ \b \B \< \> \` \'`): glibc duplicates the closure after an anchor for each
///   combination of constraints, exponential in the anchors an epsilon path crosses: `(\b|\B|^|$)*`
///   alone, or `\b(a?){30}\B(a?){30}` eight times, ran for more than 10 s (`make fuzz`'s timeout).
struct PatternSize: Equatable {
    /// The most atoms a pattern may hold with its repetitions written out (`docs/limits.md`): at this
    /// size glibc's `regcomp` takes about 0.2 s and 40 MB.
    static let maximumAtoms = 100_000
    /// The most pieces that can match the empty string, written out: `(a?){500}` takes about 20 ms.
    static let maximumEmptyMatches = 500
    /// The most anchors, written out; none may be inside a repeated part. Eight anchors among 500
    /// optional pieces take about 0.1 s (0.5 s on a loaded machine).
    static let maximumAnchors = 8

    /// Characters, bracket expressions, escapes and anchors, with every repetition written out
    /// (`ab{3}` is 4, `(ab){3}` is 6, `a+` is 2), saturating at `Int.max`.
    var atoms = 0
    /// Pieces that can match the empty string, written out: `x?` and `x*` are 1, `x{2,5}` is 3 (its
    /// optional copies), `x+` is 1 (`xx*`), an empty group or alternative is 1.
    var emptyMatches = 0
    /// Anchors, written out.
    var anchors = 0
    /// Whether an anchor is inside the operand of `*`, `+`, `?` or an interval.
    var repeatedAnchor = false

    /// The pattern's size; a pattern `regcomp` would refuse is measured as it stands (groups left
    /// open count as written).
    static func of(_ pattern: some Collection<UInt8>) -> PatternSize {
        var reader = Reader()
        reader.read(Array(pattern))
        return reader.finish()
    }

    static func + (a: PatternSize, b: PatternSize) -> PatternSize {
        PatternSize(
            atoms: a.atoms.addingSaturating(b.atoms), emptyMatches: a.emptyMatches.addingSaturating(b.emptyMatches),
            anchors: a.anchors.addingSaturating(b.anchors), repeatedAnchor: a.repeatedAnchor || b.repeatedAnchor)
    }

    /// `self` written out `copies` times.
    func times(_ copies: Int) -> PatternSize {
        let copies = max(1, copies)
        return PatternSize(
            atoms: atoms.multipliedSaturating(by: copies), emptyMatches: emptyMatches.multipliedSaturating(by: copies),
            anchors: anchors.multipliedSaturating(by: copies), repeatedAnchor: repeatedAnchor)
    }

    /// The first limit `self` is over, as the reason a pattern is refused; `nil` within every limit.
    var refusal: String? {
        if atoms > Self.maximumAtoms {
            let size = atoms == .max ? "more than \(Int.max)" : "\(atoms)"
            return "its repetitions written out make \(size) atoms, more than the limit of \(Self.maximumAtoms) (docs/limits.md)"
        }
        if repeatedAnchor {
            return
                "it repeats an anchor (^, $, \\b, \\B, \\<, \\>, \\`, \\' inside a part that *, +, ? or {…} applies to), which glibc's regcomp compiles in exponential time: put the anchor outside the repetition (docs/limits.md)"
        }
        if anchors > Self.maximumAnchors {
            return "it has \(anchors) anchors (^, $, \\b, \\B, \\<, \\>, \\`, \\'), more than the limit of \(Self.maximumAnchors) (docs/limits.md)"
        }
        if emptyMatches > Self.maximumEmptyMatches {
            let size = emptyMatches == .max ? "more than \(Int.max)" : "\(emptyMatches)"
            return
                "its repetitions written out make \(size) parts that can match nothing (x?, x*, x{0,n}, (x|), ()), more than the limit of \(Self.maximumEmptyMatches) (docs/limits.md)"
        }
        return nil
    }
}

extension PatternSize {
    /// A piece (an atom or a group, with the repetitions read so far) and whether it can match the empty string.
    fileprivate struct Piece {
        var size: PatternSize
        var nullable: Bool
    }

    /// One open group (or the whole pattern): its finished alternatives, the current alternative's
    /// finished pieces, and its last piece (which a following repetition applies to).
    fileprivate struct Frame {
        var alternatives = PatternSize()
        var anyAlternativeNullable = false
        var current = PatternSize()
        var currentNullable = true
        var currentEmpty = true
        var last: Piece?

        mutating func commit() {
            guard let piece = last else { return }
            current = current + piece.size
            currentNullable = currentNullable && piece.nullable
            currentEmpty = false
            last = nil
        }

        mutating func endAlternative() {
            commit()
            if currentEmpty { current.emptyMatches = current.emptyMatches.addingSaturating(1) }
            alternatives = alternatives + current
            anyAlternativeNullable = anyAlternativeNullable || currentNullable
            current = PatternSize()
            currentNullable = true
            currentEmpty = true
        }

        /// The group as one piece, once closed.
        mutating func close() -> Piece {
            endAlternative()
            var size = alternatives
            size.atoms = max(1, size.atoms)
            return Piece(size: size, nullable: anyAlternativeNullable)
        }

        mutating func start(_ piece: Piece) {
            commit()
            last = piece
        }

        /// Applies a repetition of `copies` written-out copies, `optional` of them matching nothing.
        mutating func repeatLast(copies: Int, optional: Int, nullable: Bool) {
            guard var piece = last else { return }
            if piece.size.anchors > 0 { piece.size.repeatedAnchor = true }
            piece.size = piece.size.times(copies)
            piece.size.emptyMatches = piece.size.emptyMatches.addingSaturating(optional)
            piece.nullable = piece.nullable || nullable
            last = piece
        }
    }

    fileprivate struct Reader {
        var frames = [Frame()]

        static let atom = Piece(size: PatternSize(atoms: 1), nullable: false)
        static let anchor = Piece(size: PatternSize(atoms: 1, anchors: 1), nullable: true)
        /// The escapes glibc reads as anchors (`\b` word boundary, `\<` word start, `\`` buffer start…).
        static let anchorEscapes: Set<UInt8> = Set("bB<>`'".utf8)

        var top: Frame {
            get { frames[frames.count - 1] }
            set { frames[frames.count - 1] = newValue }
        }

        mutating func closeGroup() {
            var group = frames.removeLast()
            top.start(group.close())
        }

        mutating func read(_ bytes: [UInt8]) {
            var i = 0
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "("):
                    top.commit()
                    frames.append(Frame())
                    i += 1
                case UInt8(ascii: ")") where frames.count > 1:
                    closeGroup()
                    i += 1
                case UInt8(ascii: "|"):
                    top.endAlternative()
                    i += 1
                case UInt8(ascii: "*"), UInt8(ascii: "?"):
                    top.repeatLast(copies: 1, optional: 1, nullable: true)
                    i += 1
                case UInt8(ascii: "+"):
                    top.repeatLast(copies: 2, optional: 1, nullable: false)
                    i += 1
                case UInt8(ascii: "{"):
                    if let (low, copies, end) = PatternSize.interval(bytes, at: i) {
                        top.repeatLast(copies: copies, optional: max(0, copies - low), nullable: low == 0)
                        i = end
                    } else {
                        top.start(Self.atom)
                        i += 1
                    }
                case UInt8(ascii: "^"), UInt8(ascii: "$"):
                    top.start(Self.anchor)
                    i += 1
                case UInt8(ascii: "["):
                    top.start(Self.atom)
                    i = PatternSize.bracketEnd(bytes, at: i)
                case UInt8(ascii: "\\"):
                    let escaped = i + 1 < bytes.count ? bytes[i + 1] : 0
                    top.start(Self.anchorEscapes.contains(escaped) ? Self.anchor : Self.atom)
                    i += 2
                default:
                    top.start(Self.atom)
                    i += 1
                }
            }
        }

        /// The whole pattern's size, groups left open folded into their parents as they stand.
        mutating func finish() -> PatternSize {
            while frames.count > 1 { closeGroup() }
            top.endAlternative()
            return top.alternatives
        }
    }

    /// The interval `{m}`, `{m,}` or `{m,n}` at `start`: its minimum m, the copies it makes (n, or
    /// m + 1 when open) and the index after it; `nil` when the brace does not start an interval.
    fileprivate static func interval(_ bytes: [UInt8], at start: Int) -> (low: Int, copies: Int, end: Int)? {
        var i = start + 1
        func number() -> Int? {
            var value: Int?
            while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) {
                value = (value ?? 0).multipliedSaturating(by: 10).addingSaturating(Int(bytes[i] - UInt8(ascii: "0")))
                i += 1
            }
            return value
        }
        let low = number()
        var high = low
        if i < bytes.count, bytes[i] == UInt8(ascii: ",") {
            i += 1
            high = number()
            if high == nil { high = low.map { $0.addingSaturating(1) } }
        }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "}"), let copies = high ?? low else { return nil }
        return (min(low ?? 0, copies), copies, i + 1)
    }

    /// The index after the bracket expression opening at `start` (`[]a]`, `[^]a]`, `[[:alpha:]]`).
    fileprivate static func bracketEnd(_ bytes: [UInt8], at start: Int) -> Int {
        var i = start + 1
        if i < bytes.count, bytes[i] == UInt8(ascii: "^") { i += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1 }
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "["), i + 1 < bytes.count, [UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: ".")].contains(bytes[i + 1]) {
                let delimiter = bytes[i + 1]
                var j = i + 2
                while j + 1 < bytes.count, !(bytes[j] == delimiter && bytes[j + 1] == UInt8(ascii: "]")) { j += 1 }
                i = j + 2
                continue
            }
            if bytes[i] == UInt8(ascii: "]") { return i + 1 }
            i += 1
        }
        return bytes.count
    }
}

extension Int {
    fileprivate func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    fileprivate func multipliedSaturating(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }
}
