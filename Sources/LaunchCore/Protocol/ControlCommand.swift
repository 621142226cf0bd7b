/// A line the launcher sends the built-in app on its control channel (standard input) once the app is
/// live (`docs/protocol.md`, "Control channel").
public enum ControlCommand: Equatable, Sendable {
    /// A tap on the named key.
    case tap(String)
    /// The user leaves the app: it runs its background step (the snapshot is saved there).
    case background
    /// The user comes back.
    case foreground
    /// The app exits after reporting.
    case quit

    /// The line, without its newline.
    public var line: String {
        switch self {
        case .tap(let key): return "tap " + key
        case .background: return "background"
        case .foreground: return "foreground"
        case .quit: return "quit"
        }
    }

    /// The command `line` spells, or `nil` when it is not one.
    public init?(line: Substring) {
        switch line {
        case "background": self = .background
        case "foreground": self = .foreground
        case "quit": self = .quit
        default:
            guard line.hasPrefix("tap ") else { return nil }
            self = .tap(String(line.dropFirst(4)))
        }
    }
}
