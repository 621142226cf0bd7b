import Testing
@testable import LaunchRunner

@Suite struct ByteSearchTests {
    @Test func bytesAndPatternsAreFoundWithinTheRange() {
        let bytes = Array("ab\nimport time: x\nimport tim".utf8)
        #expect(ByteSearch.first(0x0A, in: bytes, from: 0, to: bytes.count) == 2)
        #expect(ByteSearch.first(0x0A, in: bytes, from: 3, to: bytes.count) == 17)
        #expect(ByteSearch.first(0x0A, in: bytes, from: 18, to: bytes.count) == nil)
        #expect(ByteSearch.first(0x0A, in: [], from: 0, to: 0) == nil)
        let marker = Array("import time:".utf8)
        #expect(ByteSearch.first(marker, in: bytes, from: 0, to: bytes.count) == 3)
        #expect(ByteSearch.first(marker, in: bytes, from: 4, to: bytes.count) == nil, "a partial match at the end is none")
        #expect(ByteSearch.first(marker, in: bytes, from: 3, to: 14) == nil, "the match must end within the range")
        #expect(ByteSearch.first(marker, in: bytes, from: 3, to: 15) == 3)
        #expect(ByteSearch.first(marker, in: [], from: 0, to: 0) == nil)
        #expect(ByteSearch.first(Array("ii:".utf8), in: Array("iiii:".utf8), from: 0, to: 5) == 2)
    }
}
