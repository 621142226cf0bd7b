import Testing
import LaunchCore
import LaunchprofTestSupport
@testable import LaunchStats
#if canImport(Glibc)
import Glibc
#endif

/// Hostile budgets files: non-regular, oversized, deeply nested, seconds out of range.
@Suite(.temporaryDirectory) struct BudgetFileTests {
    @Test func aFIFOIsRefused() throws {
        let path = TemporaryDirectory.path("budgets.json")
        #expect(mkfifo(path, 0o600) == 0)
        let error = #expect(throws: CoreError.self) {
            try Budget.load(path: path)
        }
        #expect(error == .notRegularFile(path: path, type: "a FIFO (named pipe)"))
        #expect(error?.description == "\(path): is a FIFO (named pipe), not a regular file: launchprof reads inputs from regular files only")
    }

    @Test func anOversizedFileIsRefused() throws {
        let path = TemporaryDirectory.path("budgets.json")
        try FileIO.writeAtomically("{}", to: path)
        #expect(truncate(path, off_t(InputLimit.budgets.bytes + 1)) == 0)
        let error = #expect(throws: CoreError.self) {
            try Budget.load(path: path)
        }
        #expect(error == .tooLarge(path: path, size: 1048577, limit: 1 << 20, kind: "a budgets file"))
        #expect(error?.description == "\(path): is 1048577 bytes, larger than the limit of 1 MiB for a budgets file")
    }

    @Test func deepNestingIsRefusedBeforeDecoding() {
        let json = "{\"budgets\":\n" + String(repeating: "{\"a\":", count: 100_000)
        let expected = BudgetError.tooDeep(file: "b.json", line: 2, column: 316, limit: 64)
        #expect(throws: expected) { try Budget(json: Array(json.utf8), file: "b.json") }
        #expect(expected.description == "b.json: line 2, column 316: nested more than 64 levels deep (a budgets file needs 3)")
    }

    @Test func secondsAboveADayAreRefused() {
        let json = #"{"budgets": {"host": {"drawing": 1e300}}}"#
        let expected = BudgetError.overADay(file: "b.json", keyPath: "budgets.host.drawing", seconds: 1e300)
        #expect(throws: expected) { try Budget(json: Array(json.utf8), file: "b.json") }
        #expect(expected.description == "b.json: budgets.host.drawing: expected at most 86400 seconds (a day), found 1e+300")
    }

    @Test(arguments: [
        ("{", "b.json: invalid JSON at line 1, column 2: unexpected end of input"),
        ("[]", #"b.json: top level: expected an object, found an array (expected {"budgets": {"<tier>": {"<phase>": <seconds>}}})"#),
        ("{}", #"b.json: missing key "budgets" (expected {"budgets": {"<tier>": {"<phase>": <seconds>}}})"#),
        (#"{"budgets": 1}"#, #"b.json: budgets: expected an object, found a number (expected {"budgets": {"<tier>": {"<phase>": <seconds>}}})"#),
        (
            #"{"budgets": {"host": []}}"#,
            #"b.json: budgets.host: expected an object, found an array (expected {"budgets": {"<tier>": {"<phase>": <seconds>}}})"#
        ),
        (
            #"{"budgets": {"host": {"drawing": "1s"}}}"#,
            #"b.json: budgets.host.drawing: expected a number, found a string (expected {"budgets": {"<tier>": {"<phase>": <seconds>}}})"#
        )
    ])
    func malformedFilesNameTheKeyPath(json: String, message: String) {
        #expect { try Budget(json: Array(json.utf8), file: "b.json") } throws: { ($0 as? BudgetError)?.description == message }
    }

    @Test func aRepeatedKeyKeepsItsLastValue() throws {
        let budget = try Budget(json: Array(#"{"budgets": {"host": {"Init": 1, "Init": 2}}}"#.utf8), file: "b.json")
        #expect(budget.limits == ["host": ["Init": 2]])
    }

    @Test func aValidFileLoads() throws {
        let path = TemporaryDirectory.path("budgets.json")
        try FileIO.writeAtomically(#"{"budgets": {"host": {"Total launch time": 0.5}}}"#, to: path)
        #expect(try Budget.load(path: path).limits == ["host": ["Total launch time": 0.5]])
    }
}
