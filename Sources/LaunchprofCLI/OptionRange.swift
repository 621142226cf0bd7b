import ArgumentParser

/// The documented range of a numeric command-line option (docs/limits.md, "Command-line options").
///
/// Options use ``parse(_:)`` as their transform, so a value is checked as it is read, before any
/// arithmetic: a value out of range, a number too large for its type, NaN, an infinity or text that
/// is not a number is a usage error (exit 2) naming the option and its range. ``check(_:)`` repeats
/// the check in `validate()` for values that did not come from the command line.
struct OptionRange<Value: Comparable & Sendable>: Sendable {
    /// The option's spelling, `--warmup`.
    let option: String
    let range: ClosedRange<Value>
    /// What the numbers are in, shown after the range (`seconds`), or empty.
    let unit: String
    let read: @Sendable (String) -> Value?

    /// `--warmup must be from 0 to 1000`, `--timeout must be from 0.001 to 86400 seconds`.
    var requirement: String { outOfRange().description }

    /// A value outside the range (`orAuto`: where `auto` is accepted too).
    func outOfRange(orAuto: Bool = false) -> OptionProblem {
        .outOfRange(option: option, lower: Self.text(range.lowerBound), upper: Self.text(range.upperBound), unit: unit, orAuto: orAuto)
    }

    /// Reads and checks a value typed on the command line.
    func parse(_ argument: String) throws -> Value {
        guard let value = read(argument), range.contains(value) else { throw InputError.usage(outOfRange()) }
        return value
    }

    /// Checks a value already read (a default, or one built in code).
    func check(_ value: Value) throws {
        guard range.contains(value) else { throw ValidationError("\(requirement), not \(Self.text(value))") }
    }

    /// A number as the range is written: `86400` rather than `86400.0`.
    static func text(_ value: Value) -> String {
        if let number = value as? Double, number.isFinite, number == number.rounded(), abs(number) < 1e15 {
            return String(Int64(number))
        }
        return "\(value)"
    }
}

extension OptionRange where Value == Int {
    /// A whole number within `range`: `1e3`, `2.5` and numbers beyond Int64 are refused.
    init(_ option: String, _ range: ClosedRange<Int>, unit: String = "") {
        self.init(option: option, range: range, unit: unit, read: { Int($0) })
    }
}

extension OptionRange where Value == Double {
    /// A finite number within `range` (NaN and infinities are never within it).
    init(_ option: String, _ range: ClosedRange<Double>, unit: String = "") {
        self.init(option: option, range: range, unit: unit, read: { text in Double(text).flatMap { $0.isFinite ? $0 : nil } })
    }
}

/// Every numeric option's range, in one place so `--help`, the checks and docs/limits.md agree.
enum OptionRanges {
    /// `--runs N`: at least one run; 10,000 launches of a heavy manifest already take hours.
    static let runs = OptionRange("--runs", 1...10_000)
    /// `--warmup`: warm-ups are thrown away; more than 1,000 only wastes time.
    static let warmup = OptionRange("--warmup", 0...1_000)
    /// `--timeout`: a day at most, so the conversion to nanoseconds cannot overflow.
    static let timeout = OptionRange("--timeout", 0.001...86_400.0, unit: "seconds")
    /// `--background-budget`: the OS gives an app about 5 s to enter the background; a minute at most.
    static let backgroundBudget = OptionRange("--background-budget", 0.001...60.0, unit: "seconds")
    /// The time of a `--tap`: within an hour of the spawn.
    static let tapSeconds = OptionRange("--tap", 0.0...3_600.0, unit: "seconds")
    /// `--relaunch-after`: a minute at most after the previous launch went to the background.
    static let relaunchAfter = OptionRange("--relaunch-after", 0.0...60.0, unit: "seconds")
    /// `--max-runs` of `--runs auto`: at least 10 pairs, at most as many as `--runs` allows.
    static let maxRuns = OptionRange("--max-runs", 10...10_000)
    /// `--max-time` of `--runs auto`: a second to a day.
    static let maxTime = OptionRange("--max-time", 1.0...86_400.0, unit: "seconds")
    /// `--precision`: significant digits of times (docs/report.md); nanoseconds are the clock's resolution.
    static let precision = OptionRange("--precision", 0...9)
    /// `--threshold` and `--phase-threshold`, in percent of the baseline median.
    static let thresholdPercent = OptionRange("--threshold", 0.0...1_000.0, unit: "percent")
    static let phaseThresholdPercent = OptionRange("--phase-threshold", 0.0...1_000.0, unit: "percent")
    /// `--min-change`: an absolute floor of an hour at most.
    static let minChange = OptionRange("--min-change", 0.0...3_600.0, unit: "seconds")
    /// `--alpha`: a probability; above 0.5 a test calls noise a change more often than not.
    static let alpha = OptionRange("--alpha", 0.0001...0.5)
    /// `exec --ready-when-port`: a TCP port (0 is not a port a server listens on).
    static let port = OptionRange("--ready-when-port", 1...65_535)
    /// `exec --grace`: seconds between SIGTERM and SIGKILL when a ready program is stopped.
    static let grace = OptionRange("--grace", 0.0...3_600.0, unit: "seconds")
    /// `report --run K`: a run number (whether the result has that run is checked when it is read).
    static let run = OptionRange("--run", 1...1_000_000)
}

extension Option {
    /// An option of a number with a documented range: named as `range` spells it (`--max-runs`), read
    /// and checked by ``OptionRange/parse(_:)`` (by default `.unconditional`, so `-1` is refused
    /// with the range rather than taken for an option), with its help and value name.
    init(
        wrappedValue: Value, range: OptionRange<Value>, parsing: SingleValueParsingStrategy = .unconditional, help: String, valueName: String
    ) where Value: Comparable & Sendable {
        self.init(
            wrappedValue: wrappedValue, name: range.name, parsing: parsing, help: ArgumentHelp(help, valueName: valueName), transform: range.parse)
    }

    /// The same for an option with no default (`nil` when not given).
    init<Number>(range: OptionRange<Number>, parsing: SingleValueParsingStrategy = .unconditional, help: String, valueName: String)
    where Value == Number? {
        self.init(name: range.name, parsing: parsing, help: ArgumentHelp(help, valueName: valueName), transform: range.parse)
    }
}

extension OptionRange {
    /// The option's name for the argument parser: ``option`` without its dashes.
    var name: NameSpecification { .customLong(String(option.dropFirst(2))) }
}
