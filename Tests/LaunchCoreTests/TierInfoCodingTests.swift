import Foundation
import Testing
import LaunchCore

/// ``TierInfo`` keeps its factors typed by ``PhaseKind`` in memory and string-keyed in JSON.
@Suite struct TierInfoCodingTests {
    func encode(_ info: TierInfo) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(info), as: UTF8.self)
    }

    /// The bytes a string-keyed `TierInfo` wrote (synthesized `Codable`, the result file's encoder settings).
    struct StringKeyed: Codable {
        var name: String
        var factors: [String: Double]
        var memoryBudget: Int?
        var backgroundMemory: Int?
        var hostReference: [String: Double]?
    }

    @Test func theJSONIsTheStringKeyedOne() throws {
        let typed = TierInfo(
            name: "iphone-3gs", factors: [.cpu: 58.9, .io: 88.3, .decode: 2, .draw: 1],
            memoryBudget: 100_663_296, hostReference: [.cpu: 0.00104, .io: 0.0026, .decode: 0.00135, .draw: 0.0122],
            backgroundMemory: 25_165_824)
        let old = StringKeyed(
            name: "iphone-3gs", factors: ["cpu": 58.9, "io": 88.3, "decode": 2, "draw": 1],
            memoryBudget: 100_663_296, backgroundMemory: 25_165_824,
            hostReference: ["cpu": 0.00104, "io": 0.0026, "decode": 0.00135, "draw": 0.0122])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let expected = String(decoding: try encoder.encode(old), as: UTF8.self)
        #expect(try encode(typed) == expected)
        #expect(try JSONDecoder().decode(TierInfo.self, from: Data(expected.utf8)) == typed)
        // Optional fields absent stay absent (a fixed tier: no budget, no host reference).
        let fixed = TierInfo(name: "half", factors: [.cpu: 2], memoryBudget: nil, hostReference: nil)
        #expect(try encode(fixed) == String(decoding: try encoder.encode(StringKeyed(name: "half", factors: ["cpu": 2])), as: UTF8.self))
    }

    @Test func keysNamingNoKindAreIgnored() throws {
        let json = #"{"name": "x", "factors": {"cpu": 2, "gpu": 7}, "hostReference": {"draw": 0.01, "": 1}}"#
        let info = try JSONDecoder().decode(TierInfo.self, from: Data(json.utf8))
        #expect(info.factors == [.cpu: 2])
        #expect(info.hostReference == [.draw: 0.01])
    }

    @Test func wrongTypesAreStillErrors() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(TierInfo.self, from: Data(#"{"name": "x", "factors": {"cpu": "fast"}}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(TierInfo.self, from: Data(#"{"name": "x"}"#.utf8))
        }
    }
}
