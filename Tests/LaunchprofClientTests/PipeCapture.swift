import Foundation
import Glibc
import LaunchCore

/// A pipe whose write end a test's ``Reporter`` writes to, drained by a thread of its own (so many
/// lines never fill it), and read back by the launcher's parser.
final class PipeCapture: @unchecked Sendable {
    /// The write end, as LAUNCHPROF_FD would name it.
    let writeEnd: Int32
    private let readEnd: Int32
    private let spawnReading = MonotonicClock.nanoseconds()
    private let finished = DispatchSemaphore(value: 0)
    private var bytes: [UInt8] = []  // written by the reader thread only, read after `finished`

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw ClientProcess.SpawnError(description: "pipe: \(String(cString: strerror(errno)))") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        (readEnd, writeEnd) = (fds[0], fds[1])
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(readEnd, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                bytes += buffer[..<n]
            }
            close(readEnd)
            finished.signal()
        }
    }

    /// Closes the write end and returns everything written to it.
    func finish() -> [UInt8] {
        close(writeEnd)
        finished.wait()
        return bytes
    }

    /// Closes the write end and reads the report back.
    func report() throws -> ProtocolReport {
        try ProtocolReport(finish(), spawnReading: spawnReading)
    }
}
