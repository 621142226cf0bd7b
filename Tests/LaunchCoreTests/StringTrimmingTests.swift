import LaunchCore
import Testing

@Suite struct StringTrimmingTests {
    @Test func onlyTheSetsCharactersAtEitherEndGo() {
        #expect(" \t1 2\n\n".trimmingCharacters(in: " \t\n") == "1 2")
        #expect("x: 42 ".split(separator: ":")[1].trimmingCharacters(in: " ") == "42")
        #expect("  ".trimmingCharacters(in: " ") == "")
        #expect("-a-".trimmingCharacters(in: " ") == "-a-")
    }
}
