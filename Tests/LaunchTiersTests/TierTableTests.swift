import Testing
@testable import LaunchTiers
import LaunchCore
import LaunchprofTestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite struct TierTableTests {
    @Test func builtInTiersAreTheClassicDevicesInTheRatioFourThreeTwo() throws {
        let table = TierTable.builtIn
        #expect(table.tiers.map(\.name) == ["host", "iphone-3gs", "ipod-touch-2g", "iphone-1g"])
        let g3 = try #require(try table.tier(named: "iphone-3gs").referenceSeconds)
        let ipod = try #require(try table.tier(named: "ipod-touch-2g").referenceSeconds)
        let g1 = try #require(try table.tier(named: "iphone-1g").referenceSeconds)
        for kind in PhaseKind.allCases {
            #expect(abs(ipod[kind]! / g3[kind]! - 1.5) < 0.01)
            #expect(abs(g1[kind]! / g3[kind]! - 2.0) < 0.01)
        }
        #expect(try table.tier(named: "host").isIdentity)
    }

    /// Reference version 2 changed the io workload; each built-in tier's io seconds were carried over
    /// (version 1's × the measured ratio of the host's two references), so its io factor on the
    /// calibration host is what it was, and they still load as calibrated seconds.
    @Test func theBuiltInIOSecondsAreVersionOnesCarriedOver() throws {
        #expect(HostReference.version == 2)
        #expect(TierTable.ioCarryOver > 0.1 && TierTable.ioCarryOver < 0.12)
        for (name, versionOne) in TierTable.versionOneIOSeconds {
            let tier = try TierTable.builtIn.tier(named: name)
            let io = try #require(tier.referenceSeconds?[.io])
            #expect(abs(io / (versionOne * TierTable.ioCarryOver) - 1) < 0.002, "\(name): \(io) s")
            // The factor on the calibration host: version 1's host time then, version 2's now.
            let before = tier.factors(host: HostReference(seconds: [.cpu: 1, .io: 0.002025, .decode: 1, .draw: 1]))[.io]
            let after = tier.factors(host: HostReference(seconds: [.cpu: 1, .io: 0.0002295, .decode: 1, .draw: 1]))[.io]
            let old = versionOne / 0.002025
            let now = try #require(after), stale = try #require(before)
            #expect(abs(now / old - 1) < 0.002, "\(name): the io factor on the calibration host is kept")
            #expect(stale / old < 0.2, "\(name): version 1's host time would no longer give it")
        }
    }

    @Test func aTierStatesItsCoresAndTheClassicDevicesHaveOne() throws {
        let json = #"{"tiers": [{"name": "quad", "factors": {"cpu": 4}, "cores": 4}, {"name": "unsaid", "factors": {"cpu": 2}}]}"#
        let table = try TierTable(json: Array(json.utf8), file: "t.json")
        #expect(table.tiers[0].cores == 4 && table.tiers[0].throttledCores == 4)
        // A tier that says nothing is throttled as one core, as before tiers had cores.
        #expect(table.tiers[1].cores == nil && table.tiers[1].throttledCores == 1)
        for name in ["iphone-3gs", "ipod-touch-2g", "iphone-1g"] { #expect(try TierTable.builtIn.tier(named: name).cores == 1) }
        #expect(try TierTable.builtIn.tier(named: "host").cores == nil)
    }

    @Test(arguments: ["0", "-1", "257", "1.5", #""2""#, "1e300", "null", "{}"])
    func badCoresNameTheKeyPathAndTheRange(_ value: String) {
        let json = #"{"tiers": [{"name": "x", "factors": {"cpu": 2}}, {"name": "y", "factors": {"cpu": 2}, "cores": "# + value + "}]}"
        var message = "no error"
        do { _ = try TierTable(json: Array(json.utf8), file: "t.json") } catch { message = error.description }
        #expect(message == "t.json: tiers[1].cores: expected a whole number of cores from 1 to 256")
    }

    @Test func theCoreRangeEndsAreAccepted() throws {
        for cores in [DeviceTier.coreRange.lowerBound, DeviceTier.coreRange.upperBound] {
            let json = #"{"tiers": [{"name": "x", "factors": {"cpu": 2}, "cores": "# + String(cores) + "}]}"
            #expect(try TierTable(json: Array(json.utf8), file: "t.json").tiers[0].cores == cores)
        }
    }

    @Test func calibratedFactorsDivideDeviceByHostAndNeverGoBelowOne() {
        let tier = DeviceTier(name: "d", description: "", referenceSeconds: [.cpu: 2, .io: 0.5, .decode: 1, .draw: 3])
        let host = HostReference(seconds: [.cpu: 1, .io: 1, .decode: 0.25, .draw: 1])
        let factors = tier.factors(host: host)
        #expect(factors == [.cpu: 2, .io: 1, .decode: 4, .draw: 3])
        // A host twice as slow gets half the factors: the emulated device stays the same.
        let slowHost = HostReference(seconds: [.cpu: 2, .io: 2, .decode: 0.5, .draw: 2])
        #expect(tier.factors(host: slowHost)[.cpu] == 1)
        #expect(tier.factors(host: slowHost)[.decode] == 2)
    }

    @Test func userFilesAddAndOverrideTiers() throws {
        let json =
            #"{"tiers": [{"name": "iphone-3gs", "description": "mine", "factors": {"cpu": 3}}, {"name": "slow", "factors": {"draw": 2}, "memoryBudgetMB": 1.5}]}"#
        let user = try TierTable(json: Array(json.utf8), file: "t.json")
        #expect(user.tiers.count == 2)
        #expect(user.tiers[1].memoryBudget == 1_572_864)
        #expect(user.tiers[1].factors(host: nil) == [.cpu: 1, .io: 1, .decode: 1, .draw: 2])
    }

    @Test func malformedTiersAreRefusedWithTheFileAndKeyPath() {
        func error(_ json: String) -> TierError? {
            do { _ = try TierTable(json: Array(json.utf8), file: "t.json"); return nil } catch { return error }
        }
        #expect(error(#"{"tier": []}"#) == .invalidValue(file: "t.json", keyPath: nil, expected: .tierList))
        #expect(error(#"{"tiers": [1]}"#) == .invalidValue(file: "t.json", keyPath: "tiers[0]", expected: .object))
        #expect(error(#"{"tiers": [{"name": ""}]}"#) == .invalidValue(file: "t.json", keyPath: "tiers[0].name", expected: .nonEmptyString))
        #expect(error(#"{"tiers": [{"name": "x", "factors": 2}]}"#) == .invalidValue(file: "t.json", keyPath: "tiers[0].factors", expected: .kindObject))
        #expect(error(#"{"tiers": [{"name": "x", "factors": {"gpu": 2}}]}"#) == .unknownKind(file: "t.json", keyPath: "tiers[0].factors.gpu"))
        #expect(
            error(#"{"tiers": [{"name": "x", "factors": {"cpu": 2}, "referenceSeconds": {"cpu": 2}}]}"#)
                == .referenceOrFactors(file: "t.json", keyPath: "tiers[0]", both: true))
        #expect(
            error(#"{"tiers": [{"name": "x", "factors": {"cpu": 2}, "cores": 0}]}"#)
                == .invalidValue(file: "t.json", keyPath: "tiers[0].cores", expected: .cores(DeviceTier.coreRange)))
        guard case .unknownKey(_, "tiers[0]", "factor", let allowed) = error(#"{"tiers": [{"name": "x", "factor": {}}]}"#) else {
            Issue.record("an unknown key was not refused as one")
            return
        }
        #expect(allowed.contains("factors"))
        guard case .invalidJSON("t.json", .invalidJSON(_, 1, 2, _)) = error("[") else {
            Issue.record("invalid JSON was not refused with its line and column")
            return
        }
    }

    @Test func malformedTiersAreExplained() {
        func message(_ json: String) -> String {
            do { _ = try TierTable(json: Array(json.utf8), file: "t.json"); return "no error" } catch { return error.description }
        }
        #expect(message("[") == "t.json: invalid JSON at line 1, column 2: unexpected end of input")
        #expect(
            message(#"{"tiers": [{"name": "x", "factors": {"cpu": true}}]}"#) == "t.json: tiers[0].factors.cpu: expected a positive number (at most 1000000)")
        #expect(
            message(#"{"tiers": [{"name": "x", "factors": {"cpu": 2}, "cores": 1.5}]}"#)
                == "t.json: tiers[0].cores: expected a whole number of cores from 1 to \(DeviceTier.coreRange.upperBound)")
        #expect(message(#"{"tiers": [{"name": "x"}]}"#) == #"t.json: tiers[0]: give either "referenceSeconds" (calibrated) or "factors" (fixed), not neither"#)
        #expect(message(#"{"tiers": [{"name": "x", "factors": {"gpu": 2}}]}"#) == "t.json: tiers[0].factors.gpu: unknown kind (expected cpu, io, decode, draw)")
        #expect(message(#"{"tiers": [{"name": "x", "factors": {"cpu": -1}}]}"#) == "t.json: tiers[0].factors.cpu: expected a positive number (at most 1000000)")
        #expect(message(#"{"tiers": [{"name": "x", "factor": {}}]}"#).hasPrefix(#"t.json: tiers[0]: unknown key "factor""#))
        #expect(throws: TierError.self) { try TierTable.builtIn.tier(named: "nokia") }
    }

    @Test func hostReferenceMeasuresEveryKind() throws {
        let reference = try HostReference.measure(repetitions: 1)
        for kind in PhaseKind.allCases { #expect((reference.seconds[kind] ?? 0) > 0) }
    }
}

/// Hostile tiers files: non-regular, oversized, deeply nested, numbers out of range.
@Suite(.temporaryDirectory) struct HostileTiersFileTests {
    @Test func aFIFOIsRefused() throws {
        let path = TemporaryDirectory.path("tiers.json")
        #expect(mkfifo(path, 0o600) == 0)
        let error = #expect(throws: CoreError.self) {
            try TierTable.load(userFile: path)
        }
        #expect(error == .notRegularFile(path: path, type: "a FIFO (named pipe)"))
        #expect(error?.description == "\(path): is a FIFO (named pipe), not a regular file: launchprof reads inputs from regular files only")
    }

    @Test func aSymlinkToDevZeroIsRefused() throws {
        let path = TemporaryDirectory.path("tiers.json")
        #expect(symlink("/dev/zero", path) == 0)
        let error = #expect(throws: CoreError.self) {
            try TierTable.load(userFile: path)
        }
        #expect(error == .notRegularFile(path: path, type: "a character device"))
        #expect(error?.description == "\(path): is a character device, not a regular file: launchprof reads inputs from regular files only")
    }

    @Test func anOversizedFileIsRefused() throws {
        let path = TemporaryDirectory.path("tiers.json")
        try FileIO.writeAtomically("{}", to: path)
        #expect(truncate(path, off_t(InputLimit.tiers.bytes + 1)) == 0)
        let error = #expect(throws: CoreError.self) {
            try TierTable.load(userFile: path)
        }
        #expect(error == .tooLarge(path: path, size: 1048577, limit: 1 << 20, kind: "a tiers file"))
        #expect(error?.description == "\(path): is 1048577 bytes, larger than the limit of 1 MiB for a tiers file")
    }

    @Test func deepNestingIsRefusedBeforeDecoding() {
        let json = String(repeating: "[", count: 100_000)
        #expect(throws: TierError.tooDeep(file: "t.json", line: 1, column: 65, limit: 64)) {
            try TierTable(json: Array(json.utf8), file: "t.json")
        }
    }

    @Test(arguments: [
        (#""factors": {"cpu": 1e300}"#, "factors.cpu", TierError.Expected.positiveNumber(maximum: 1e6)),
        (#""factors": {"cpu": -2}"#, "factors.cpu", .positiveNumber(maximum: 1e6)),
        (#""referenceSeconds": {"draw": 0}"#, "referenceSeconds.draw", .positiveNumber(maximum: 1e6)),
        (#""factors": {"cpu": 2}, "memoryBudgetMB": 1e300"#, "memoryBudgetMB", .mebibytes(maximum: 1e9)),
        (#""factors": {"cpu": 2}, "memoryBudgetMB": -1"#, "memoryBudgetMB", .mebibytes(maximum: 1e9))
    ])
    func outOfRangeNumbersNameTheFileAndKey(entry: String, key: String, expected: TierError.Expected) {
        let json = #"{"tiers": [{"name": "x", \#(entry)}]}"#
        #expect(throws: TierError.invalidValue(file: "t.json", keyPath: "tiers[0].\(key)", expected: expected)) {
            try TierTable(json: Array(json.utf8), file: "t.json")
        }
    }
}
