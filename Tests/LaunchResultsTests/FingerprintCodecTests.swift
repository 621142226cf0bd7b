import Testing
@testable import LaunchResults
import LaunchCore
import LaunchprofTestSupport
import Foundation

/// The environment fingerprint in a result (the build, the tier's calibration): written, read back by
/// both readers alike, and absent from older results without refusing them.
@Suite struct FingerprintCodecTests {
    static func fingerprinted() -> LaunchResult {
        var result = SampleResult.classic(runs: 2)
        result.tool = ToolInfo(name: "launchprof", version: "0.1.0", build: "release")
        result.configuration = RunConfiguration(
            runs: 2, warmup: 1, mode: .warm, timeout: 60,
            tier: TierInfo(
                name: "iphone-3gs", factors: [.cpu: 30, .io: 20, .decode: 40, .draw: 60], memoryBudget: 96 << 20,
                hostReference: [.cpu: 0.0018, .io: 0.0036, .decode: 0.0019, .draw: 0.012],
                calibration: CalibrationInfo(made: "2026-11-25T20:00:00Z", referenceVersion: 1, processes: 9, source: "cache", host: "0123456789abcdef")),
            metric: .time)
        return result
    }

    @Test func bothReadersReadTheFingerprint() throws {
        let original = Self.fingerprinted()
        let bytes = try ResultFile.encode(original)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"build\" : \"release\""))
        #expect(text.contains("\"referenceVersion\" : 1"))
        #expect(try ResultFile.decode(bytes, path: "r.json") == original)
        let header = try ResultTableReader.tabulate(bytes, path: "r.json").header
        #expect(header.tool == original.tool)
        #expect(header.configuration?.tier == original.configuration?.tier)
        #expect(header.host == original.host)
    }

    @Test func anOlderResultWithoutTheFingerprintStillReads() throws {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(try ResultFile.encode(Self.fingerprinted()))) as? [String: Any])
        var tool = try #require(object["tool"] as? [String: Any])
        tool["build"] = nil
        object["tool"] = tool
        var configuration = try #require(object["configuration"] as? [String: Any])
        var tier = try #require(configuration["tier"] as? [String: Any])
        tier["calibration"] = nil
        configuration["tier"] = tier
        object["configuration"] = configuration
        let bytes = Array(try JSONSerialization.data(withJSONObject: object))
        let decoded = try ResultFile.decode(bytes, path: "old.json")
        #expect(decoded.tool.build == nil)
        #expect(decoded.configuration?.tier?.calibration == nil)
        #expect(decoded.configuration?.tier?.hostReference?[.draw] == 0.012)
        let header = try ResultTableReader.tabulate(bytes, path: "old.json").header
        #expect(header.tool.build == nil && header.configuration?.tier?.calibration == nil)
    }

    @Test func aMalformedCalibrationIsNamedByBothReaders() throws {
        let text = String(decoding: try ResultFile.encode(Self.fingerprinted()), as: UTF8.self)
            .replacingOccurrences(of: "\"processes\" : 9", with: "\"processes\" : \"nine\"")
        let bytes = Array(text.utf8)
        #expect(throws: ResultError.self) { try ResultFile.decode(bytes, path: "bad.json") }
        do {
            _ = try ResultTableReader.tabulate(bytes, path: "bad.json")
            Issue.record("a malformed calibration was accepted")
        } catch {
            #expect(error.description.contains("calibration.processes"), "\(error.description)")
        }
    }
}
