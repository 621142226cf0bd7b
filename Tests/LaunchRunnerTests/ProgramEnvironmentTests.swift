import Testing
@testable import LaunchRunner
#if canImport(Glibc)
import Glibc
#endif

/// The environment a launched program gets: this process's, with the launcher's variables replacing
/// those of the same name (``ProcessLauncher/programEnvironment(overriding:)``).
@Suite struct ProgramEnvironmentTests {
    @Test func keepsTheProcessEnvironmentAndReplacesOverriddenNames() {
        let path = String(cString: getenv("PATH"))
        let entries = ProcessLauncher.programEnvironment(overriding: ["PATH": "/replaced", "LAUNCHPROF_TEST_ADDED": "a=b"])
        #expect(entries.filter { $0.hasPrefix("PATH=") } == ["PATH=/replaced"])
        #expect(entries.contains("LAUNCHPROF_TEST_ADDED=a=b"))
        #expect(!entries.contains("PATH=\(path)"))
        // Everything else is this process's own, once each.
        var count = 0
        var pointer = environ
        while let entry = pointer.pointee {
            pointer += 1
            let text = String(cString: entry)
            if text.hasPrefix("PATH=") { continue }
            count += 1
            #expect(entries.contains(text))
        }
        #expect(entries.count == count + 2)
    }

    @Test func withoutOverridesIsTheProcessEnvironment() {
        var own: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            own.append(String(cString: entry))
            pointer += 1
        }
        #expect(ProcessLauncher.programEnvironment(overriding: [:]) == own)
    }
}
