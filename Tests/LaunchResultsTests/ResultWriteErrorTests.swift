import LaunchCore
import LaunchprofTestSupport
import Testing

@testable import LaunchResults

/// Writing a result fails with LaunchResults' own error, naming the file (or the directory the file
/// system refused), worded as the file system's error was before it was typed.
@Suite struct ResultWriteErrorTests {
    @Test func aDirectoryInTheWayIsRefusedByName() throws {
        let directory = try TemporaryDirectory.make(prefix: "result-write")
        defer { TemporaryDirectory.remove(directory) }
        #expect(throws: ResultError.cannotWrite(path: directory, .directoryNotFile(path: directory))) {
            try ResultFile.write(SampleResult.classic(), to: directory)
        }
        let error = ResultError.cannotWrite(path: directory, .directoryNotFile(path: directory))
        #expect(error.description == "\(directory): is a directory, not a file")
        #expect(error.description == CoreError.directoryNotFile(path: directory).description)
    }

    @Test func aRefusalOnTheParentNamesTheParent() {
        let refusal = CoreError.system(path: "/ro", action: "create directory", reason: "Read-only file system")
        let error = ResultError.cannotWrite(path: "/ro/out.json", refusal)
        #expect(error.subject == "/ro")
        #expect(error.description == "/ro: cannot create directory: Read-only file system")
    }

    @Test func aNumberJSONCannotHoldIsRefusedWithItsKeyPathAndFile() throws {
        var result = SampleResult.classic(runs: 2)
        result.runs[1].total = .nan
        #expect(throws: PrettyJSON.Unencodable.self) { try ResultFile.encode(result) }
        let directory = try TemporaryDirectory.make(prefix: "result-nan")
        defer { TemporaryDirectory.remove(directory) }
        let path = directory + "/out.json"
        do {
            try ResultFile.write(result, to: path)
            Issue.record("a NaN total must be refused")
        } catch {
            guard case .unencodable(path, let refusal) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(refusal.keyPath == "runs[1].total")
            #expect(error.description.hasPrefix("\(path): cannot be written as JSON: runs[1].total: "))
        }
        #expect(!FileIO.exists(path))
    }

    @Test func theRefusalIsWordedOnce() {
        let refusal = PrettyJSON.Unencodable(keyPath: "runs[0].total", problem: "Unable to encode Double.nan directly in JSON.")
        #expect(refusal.description == "cannot be written as JSON: runs[0].total: Unable to encode Double.nan directly in JSON.")
        #expect(PrettyJSON.Unencodable(keyPath: "", problem: "p").description == "cannot be written as JSON: top level: p")
    }
}
