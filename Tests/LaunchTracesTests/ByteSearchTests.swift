import Testing
@testable import LaunchTraces

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

extension ByteSearchTests {
    @Test func controlCharactersAreFoundInEveryPosition() {
        for length in [0, 1, 7, 8, 9, 17, 40] {
            let clean = [UInt8](repeating: UInt8(ascii: "a"), count: length) + [0x20, 0x7F, 0xFF, 0x80]
            #expect(!ByteSearch.containsControlCharacter(clean, from: 0, to: clean.count))
            for position in 0..<clean.count {
                for control: UInt8 in [0x00, 0x09, 0x1F] {
                    var dirty = clean
                    dirty[position] = control
                    #expect(ByteSearch.containsControlCharacter(dirty, from: 0, to: dirty.count), "0x\(control) at \(position) of \(dirty.count)")
                    #expect(!ByteSearch.containsControlCharacter(dirty, from: position + 1, to: dirty.count))
                }
            }
        }
    }
}
