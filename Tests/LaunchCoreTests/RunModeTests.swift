import Foundation
import Testing
import LaunchCore

/// The run mode is typed in memory and the same string in result files.
struct RunModeTests {
    @Test func theModeIsWrittenAsItsStringAndAnUnknownOneIsRefused() throws {
        let configuration = RunConfiguration(runs: 3, warmup: 1, mode: .cold, timeout: 60)
        let text = String(decoding: try JSONEncoder().encode(configuration), as: UTF8.self)
        #expect(text.contains(#""mode":"cold""#))
        #expect(try JSONDecoder().decode(RunConfiguration.self, from: Data(text.utf8)).mode == .cold)
        let unknown = text.replacingOccurrences(of: #""mode":"cold""#, with: #""mode":"lukewarm""#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RunConfiguration.self, from: Data(unknown.utf8)) }
    }
}
