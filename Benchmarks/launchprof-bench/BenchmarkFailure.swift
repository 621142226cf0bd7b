/// A benchmark that could not measure what it set out to (its input or the launch was not what it
/// expects): the message `main` prints.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
