import LaunchCore
import LaunchRunner

/// A one-line progress display on stderr (only when stderr is a terminal and not `--quiet`):
/// runs done of total, the current stage, and the time left.
final class ProgressBar: @unchecked Sendable {
    // Only touched from the thread that runs the session, so no lock is needed.
    private let enabled: Bool
    private var total = 0
    private var done = 0
    private var current = ""
    private var label = ""
    private var elapsed: [Double] = []

    init(enabled: Bool) {
        self.enabled = enabled
    }

    func handle(_ event: LaunchSession.Event) {
        guard enabled else { return }
        switch event {
        case .starting(let number, let total, let warmup):
            self.total = total
            label = warmup ? "warm-up \(number)" : "run \(number)"
            current = ""
        case .stage(let name):
            current = name
        case .finished(_, let seconds):
            done += 1
            elapsed.append(seconds)
        }
        draw()
    }

    func finish() {
        guard enabled else { return }
        StandardError.write("\r\u{1B}[2K")
    }

    private func draw() {
        let width = 20
        let filled = total > 0 ? width * done / total : 0
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        var line = "\r\u{1B}[2K\(bar) \(done)/\(total) \(label)"
        if !current.isEmpty { line += " · \(current)" }
        if !elapsed.isEmpty {
            let average = elapsed.reduce(0, +) / Double(elapsed.count)
            let left = average * Double(total - done)
            line += " · ~\(Int(left.rounded(.up)))s left"
        }
        StandardError.write(line)
    }
}
