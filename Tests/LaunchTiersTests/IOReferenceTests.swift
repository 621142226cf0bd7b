import LaunchprofTestSupport
import Testing
@testable import LaunchTiers
import LaunchCore
#if canImport(Glibc)
import Glibc
#endif

/// The io reference workload (version 2): a launch's reads from the page cache, in files it makes in
/// a directory of its own and removes; every failure names the directory and what it could not do.
@Suite struct IOReferenceTests {
    /// A temporary directory for one test, removed after `body`.
    func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = try TemporaryDirectory.make(prefix: "io-test")
        defer { TemporaryDirectory.remove(directory) }
        try body(directory)
    }

    @Test func itsFilesAreMadeInADirectoryOfTheirOwnAndRemovedAfter() throws {
        try withDirectory { parent in
            var made = ""
            do {
                let workloads = try ReferenceWorkloads(temporaryDirectory: parent)
                made = workloads.ioDirectory
                #expect(made.hasPrefix(parent + "/launchprof-reference-"))
                let names = FileIO.entries(of: made).sorted()
                #expect(names.count == 35)
                #expect(names.first == "data-0.bin" && names.last == "text-31.txt" && names.contains("state.lock"))
                #expect(try FileIO.read(made + "/data-1.bin").count == 256 * 1024)
                #expect(try FileIO.read(made + "/text-00.txt").count == 256)
                #expect(try FileIO.read(made + "/text-05.txt").count == 8192 - 35)
                // Twice the same: it reads, it writes nothing.
                let first = try workloads.ioChecksum()
                #expect(try workloads.ioChecksum() == first)
            }
            #expect(!made.isEmpty && !FileIO.exists(made), "the files are removed with the workloads")
            #expect(FileIO.entries(of: parent).isEmpty)
        }
    }

    @Test func aTemporaryDirectoryThatCannotBeWrittenIsNamed() throws {
        try withDirectory { parent in
            // A regular file where the directory should be (root may write anywhere, so permissions cannot refuse it).
            let file = parent + "/not-a-directory"
            try FileIO.writeAtomically("x", to: file)
            let expected = TierError.referenceFiles(directory: file, step: .create, reason: String(cString: strerror(ENOTDIR)))
            #expect(throws: expected) { try ReferenceWorkloads(temporaryDirectory: file) }
            #expect(throws: expected) { try HostReference.measure(repetitions: 1, temporaryDirectory: file) }
            #expect(
                expected.description
                    == "the io reference workload cannot create its files in \(file): Not a directory (set TMPDIR to a writable directory)")
            let missing = parent + "/missing"
            #expect(throws: TierError.referenceFiles(directory: missing, step: .create, reason: String(cString: strerror(ENOENT)))) {
                try ReferenceWorkloads(temporaryDirectory: missing)
            }
            #expect(FileIO.entries(of: parent) == ["not-a-directory"], "nothing is left behind")
        }
    }

    @Test func aFileThatGoesMissingIsAReadErrorNamingTheDirectory() throws {
        try withDirectory { parent in
            let workloads = try ReferenceWorkloads(temporaryDirectory: parent)
            _ = try workloads.ioChecksum()
            #expect(unlink(workloads.ioDirectory + "/text-07.txt") == 0)
            let noFile = String(cString: strerror(ENOENT))
            #expect(throws: TierError.referenceFiles(directory: workloads.ioDirectory, step: .read, reason: noFile)) { try workloads.run(.io) }
            // A file of another length is refused too (the read is bounded and checked).
            try FileIO.writeAtomically("short", to: workloads.ioDirectory + "/text-07.txt")
            #expect(throws: TierError.referenceFiles(directory: workloads.ioDirectory, step: .read, reason: String(cString: strerror(EIO)))) {
                try workloads.ioChecksum()
            }
            FileIO.removeTree(workloads.ioDirectory)
            #expect(throws: TierError.referenceFiles(directory: workloads.ioDirectory, step: .list, reason: noFile)) { try workloads.ioChecksum() }
        }
    }

    @Test func eachStepOfTheCIsNamed() {
        #expect(ReferenceFileStep(code: 4) == .create)
        #expect(ReferenceFileStep(code: 5) == .write)
        #expect(ReferenceFileStep(code: 7) == .read)
        #expect(ReferenceFileStep(code: 8) == .list)
        #expect(ReferenceFileStep(code: 9) == .lock)
        #expect(
            TierError.referenceFiles(directory: "/d", step: .lock, reason: "Bad file descriptor").description
                == "the io reference workload cannot lock its lock file in /d: Bad file descriptor (set TMPDIR to a writable directory)")
    }

    /// `$TMPDIR` is the user's: a newline in it must not split the one-line message.
    @Test func aDirectoryNameIsWrittenOnOneLine() {
        let message = TierError.referenceFiles(directory: "/tmp/a\nb<x>", step: .create, reason: "No such file or directory").description
        #expect(!message.contains("\n"))
        #expect(message.contains("/tmp/a\\nb<x>"))
    }
}
