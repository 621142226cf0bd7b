import Testing
import LaunchCore

/// "Did you mean …?": the closest known name, only when it is close enough to be a typo.
@Suite struct NearestNameTests {
    @Test(arguments: [
        ("drawnig", "drawing"), ("hots", "host"), ("iphnoe-3gs", "iphone-3gs"), ("Drawing", "drawing"), ("loading imags", "loading images")
    ])
    func aTypoFindsItsName(typed: String, meant: String) {
        #expect(NearestName.suggestion(for: typed, among: ["host", "drawing", "iphone-3gs", "iphone-1g", "loading images"]) == meant)
    }

    @Test func farNamesAndTheNameItselfSuggestNothing() {
        #expect(NearestName.suggestion(for: "bogus", among: ["drawing", "host"]) == nil)
        #expect(NearestName.suggestion(for: "ab", among: ["xy"]) == nil)
        #expect(NearestName.suggestion(for: "host", among: ["host"]) == nil)
        #expect(NearestName.hint(for: "drawnig", among: ["drawing"]) == "; did you mean drawing?")
        #expect(NearestName.hint(for: "zzz", among: ["drawing"]) == "")
    }

    @Test func theClosestOfSeveralWins() {
        #expect(NearestName.suggestion(for: "iphone-2g", among: ["iphone-3gs", "iphone-1g"]) == "iphone-1g")
    }
}
