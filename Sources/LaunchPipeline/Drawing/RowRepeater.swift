/// Test only (`test.slowdown`): makes every drawing loop that consults it run an evenly spread
/// `fraction` of its rows once more, so a frame drawn through it does that fraction more of its
/// per-row work, with the same code on the same rows (the repeated rows blend twice: the frame's
/// pixels are of no use).
///
/// A loop runs its rows in order, then the repeated ones (``RepeatedRows``): not each right after
/// itself, where its memory would still be in the nearest caches and the repeat would cost less
/// time than the row did (measured: time grew by 0.77 × the fraction that way, instructions 0.96 ×).
///
/// One repeater is shared by the canvas, the key tiles and their masks of a drawing, and its carry
/// runs on from loop to loop: each loop repeats its share of rows (within one), and the rows
/// repeated in all are the fraction of all rows drawn, whatever mix of shapes the frame has.
/// Integer arithmetic in 2⁻³² steps, so a drawing repeats the same rows on every machine. Not
/// locked: one drawing uses it, on one thread.
public final class RowRepeater: @unchecked Sendable {
    private let step: UInt64
    @exclusivity(unchecked) private var carry: UInt64 = 0
    /// Rows run a second (or further) time so far.
    @exclusivity(unchecked) public private(set) var repeated = 0

    private static let one: UInt64 = 1 << 32

    /// `fraction` from 0 to 100: rows are repeated that many times more on average.
    public init(fraction: Double) {
        precondition(fraction >= 0 && fraction <= 100, "a row repeater's fraction is from 0 to 100")
        step = UInt64((fraction * Double(Self.one)).rounded())
    }

    /// How many times the next row runs: 1, plus the whole repeats the carry reached.
    @inline(__always)
    public func runs() -> Int {
        carry &+= step
        let extra = Int(carry >> 32)
        carry &= Self.one - 1
        repeated &+= extra
        return 1 + extra
    }
}

extension Optional where Wrapped == RowRepeater {
    /// The rows a drawing loop over `range` runs: `range`, then the rows the repeater repeats (none
    /// without a repeater: every real drawing).
    @inline(__always)
    func rows(_ range: Range<Int>) -> RepeatedRows {
        RepeatedRows(range: range, repeater: self)
    }
}

/// The rows of a drawing loop: every row of `range` in order, then, with a repeater, the rows it
/// repeats (in order, each as many times as it says).
struct RepeatedRows: Sequence, IteratorProtocol {
    private var row: Int
    private let range: Range<Int>
    private let repeater: RowRepeater?
    /// Whether the rows of `range` are done and the repeats are being run.
    private var repeating = false
    /// Further runs of the row before `row` still due, while repeating.
    private var due = 0

    init(range: Range<Int>, repeater: RowRepeater?) {
        self.range = range
        self.row = range.lowerBound
        self.repeater = repeater
    }

    @inline(__always)
    mutating func next() -> Int? {
        if !repeating {
            if row < range.upperBound {
                defer { row += 1 }
                return row
            }
            guard repeater != nil else { return nil }
            repeating = true
            row = range.lowerBound
        }
        while due == 0 {
            guard row < range.upperBound, let repeater else { return nil }
            due = repeater.runs() - 1
            row += 1
        }
        due -= 1
        return row - 1
    }
}
