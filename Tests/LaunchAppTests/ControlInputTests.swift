import Testing

@testable import LaunchApp

#if canImport(Glibc)
import Glibc
#endif

/// The control channel's lines as the app reads them from its standard input, here from a pipe.
@Suite struct ControlInputTests {
    /// A pipe holding `text`, its write end closed when `close` (the end of the input).
    final class Pipe {
        let read: Int32
        private(set) var write: Int32

        init(_ text: String, close: Bool = true) throws {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            read = ends[0]
            write = ends[1]
            self.send(text)
            if close { closeWriteEnd() }
        }

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { Glibc.write(write, $0.baseAddress, $0.count) }
                guard n > 0 else { return }
                sent += n
            }
        }

        func closeWriteEnd() {
            if write >= 0 { close(write) }
            write = -1
        }

        deinit {
            closeWriteEnd()
            close(read)
        }
    }

    @Test func linesComeInOrderWithoutTheirLineFeedsOrCarriageReturns() throws {
        let pipe = try Pipe("tap 7\r\nbackground\n\nquit\n")
        var input = ControlInput(fd: pipe.read)
        #expect(input.nextLine() == "tap 7")
        #expect(input.nextLine() == "background")
        #expect(input.nextLine() == "")
        #expect(input.nextLine() == "quit")
        #expect(input.nextLine() == nil)
    }

    @Test func aLastLineWithoutALineFeedIsStillALine() throws {
        let pipe = try Pipe("tap 1\nquit")
        var input = ControlInput(fd: pipe.read)
        #expect(input.nextLine() == "tap 1")
        #expect(input.nextLine() == "quit")
        #expect(input.nextLine() == nil)
    }

    @Test func anEmptyInputEndsAtOnce() throws {
        let pipe = try Pipe("")
        var input = ControlInput(fd: pipe.read)
        #expect(input.linesAvailableNow().isEmpty)
        #expect(input.nextLine() == nil)
    }

    /// What came while the app was launching is read without blocking; a partial line waits for its end.
    @Test func linesAvailableNowAreTheCompleteOnesWaiting() throws {
        let pipe = try Pipe("tap 7\ntap 8\ntap", close: false)
        var input = ControlInput(fd: pipe.read)
        #expect(input.linesAvailableNow() == ["tap 7", "tap 8"])
        pipe.send(" 9\n")
        pipe.closeWriteEnd()
        #expect(input.nextLine() == "tap 9")
        #expect(input.nextLine() == nil)
    }

    @Test func aLineLongerThanTheLimitIsCutThereAndTheNextLineIsWhole() throws {
        let long = String(repeating: "x", count: 3 * ControlInput.maximumLineBytes)
        let pipe = try Pipe("tap " + long + "\nquit\n")
        var input = ControlInput(fd: pipe.read)
        let line = input.nextLine()
        let first = try #require(line)
        #expect(first.utf8.count == ControlInput.maximumLineBytes)
        #expect(first.hasPrefix("tap xxx"))
        #expect(input.nextLine() == "quit")
    }
}
