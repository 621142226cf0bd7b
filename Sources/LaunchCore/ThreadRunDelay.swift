#if canImport(Glibc)
import Glibc
#endif

/// How long the calling thread has waited for a CPU: runnable, but another task running
/// (`/proc/thread-self/schedstat`'s second number, the scheduler's `run_delay`, in nanoseconds).
///
/// Device emulation reads it at a phase's begin and end: on a loaded host a phase of a few
/// milliseconds is preempted, and that wait is neither the phase's work nor the device's (the device
/// would have run it), so it is taken out of the stretch instead of being multiplied or added to it.
/// The kernel adds a wait when it ends (the thread is running when it reads its own), so a reading is
/// exact up to that moment. One `pread` of an open file: under a microsecond.
public struct ThreadRunDelay {
    /// The open file, or -1 when it could not be opened (no `/proc`, a kernel without `CONFIG_SCHED_INFO`).
    private let fd: Int32

    /// Opens the calling thread's file: a reader must be used on the thread that made it.
    public init() {
        #if os(Linux)
        fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC)
        #else
        fd = -1
        #endif
    }

    /// Whether readings are real (else ``nanoseconds()`` is always 0).
    public var isAvailable: Bool { fd >= 0 }

    /// The thread's total wait for a CPU so far, in nanoseconds; 0 when it cannot be read.
    public func nanoseconds() -> UInt64 {
        reading().nanoseconds
    }

    /// The thread's total wait for a CPU so far, and the bytes this reading read (which the thread's
    /// `rchar` counts: ``ThreadCounters`` leaves its own reads out of a phase's bytes read).
    func reading() -> (nanoseconds: UInt64, bytes: Int) {
        guard fd >= 0 else { return (0, 0) }
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &buffer) { raw -> (UInt64, Int) in
            let n = pread(fd, raw.baseAddress, raw.count, 0)
            guard n > 0 else { return (0, 0) }
            return (Self.secondNumber(UnsafeRawBufferPointer(rebasing: raw[0..<n])), n)
        }
    }

    /// The second whitespace-separated decimal number of `text` (`"exec run_delay timeslices"`), 0 if none.
    static func secondNumber(_ text: UnsafeRawBufferPointer) -> UInt64 {
        firstTwoNumbers(text).1
    }

    /// The first two decimal numbers of `text` (`/proc` files: `schedstat`, `io`'s `rchar: N\nwchar: N`),
    /// each 0 when missing.
    static func firstTwoNumbers(_ text: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        var numbers: (UInt64, UInt64) = (0, 0)
        var field = 0, value: UInt64 = 0, inNumber = false
        for c in text {
            if c >= 48 && c <= 57 {
                value = value &* 10 &+ UInt64(c - 48)
                inNumber = true
            } else if inNumber {
                if field == 0 { numbers.0 = value } else { numbers.1 = value; return numbers }
                field += 1
                value = 0
                inNumber = false
            }
        }
        if inNumber { if field == 0 { numbers.0 = value } else { numbers.1 = value } }
        return numbers
    }

    /// Closes the file.
    public func close() {
        #if canImport(Glibc)
        if fd >= 0 { _ = Glibc.close(fd) }
        #endif
    }
}
