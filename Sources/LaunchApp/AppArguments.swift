/// Why the built-in app refuses to start: the message it writes to standard error before it exits
/// with status 2 (bad input), having launched nothing.
struct AppRefusal: Error, Equatable {
    var message: String
}

extension BuiltInApp.Options {
    /// Parses the app's arguments: `--manifest M`, `--snapshot PATH`, `--no-snapshot`, `--touch NAME`
    /// and `--check-tap KEY` (both repeatable), `--seed N` (0 to 2⁶⁴ − 1), `--force-decode-race`. An
    /// option missing its value takes an empty one. Refused: an argument the app does not know, a
    /// `--seed` that is not a whole number in range.
    init(arguments: [String]) throws(AppRefusal) {
        self.init()
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            let value = i + 1 < arguments.count ? arguments[i + 1] : ""
            switch argument {
            case "--manifest": manifest = value; i += 1
            case "--snapshot": snapshot = value; i += 1
            case "--no-snapshot": writeSnapshot = false
            case "--force-decode-race": forceDecodeRace = true
            case "--touch": touch.append(value); i += 1
            case "--check-tap": checkTaps.append(value); i += 1
            case "--seed":
                guard let parsed = UInt64(value) else {
                    throw AppRefusal(message: "--seed expects a whole number from 0 to \(UInt64.max), not '\(value)'")
                }
                seed = parsed; i += 1
            default: throw AppRefusal(message: "unknown app argument '\(argument)'")
            }
            i += 1
        }
    }
}
