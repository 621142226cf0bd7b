/// Test only (`test.slowdown`): makes every drawing loop that consults it run an evenly spread
/// `fraction` of its rows once more, so a frame drawn through it does that fraction more of its
/// per-row work, with the same code on the same rows (the repeated rows blend twice: the frame's
/// pixels are of no use).
///
/// One repeater is shared by the canvas, the key tiles and their masks of a drawing, and its carry
/// runs on from loop to loop: each loop repeats its share of rows (within one), and the rows
/// repeated in all are the fraction of all rows drawn, whatever mix of shapes the frame has.
/// Integer arithmetic in 2⁻³² steps, so a drawing repeats the same rows on every machine.
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
    /// How many times a drawing loop runs its next row: once without a repeater (every real drawing).
    @inline(__always)
    func runs() -> Int {
        guard let repeater = self else { return 1 }
        return repeater.runs()
    }
}
