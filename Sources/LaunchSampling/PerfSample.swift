/// One frame of a sample's call chain as `perf script` prints it: the address, the symbol (mangled:
/// perf is run with `--no-demangle`) and the object file (`[kernel.kallsyms]`, a library's path).
public struct PerfFrame: Equatable, Hashable, Sendable {
    public var address: UInt64
    /// The symbol; `nil` where perf knew none (`[unknown]`).
    public var symbol: String?
    /// The object file; `nil` where perf knew none.
    public var object: String?

    /// Whether perf knew neither the symbol nor the object: a frame-pointer chain that ran past its
    /// end (code without frame pointers), dropped from stacks.
    public var isUnknown: Bool { symbol == nil && object == nil }

    /// Whether the frame is the kernel's.
    public var isKernel: Bool { object?.hasPrefix("[kernel") == true }
}

/// One `cpu-clock` sample: the process and thread it hit, its `CLOCK_MONOTONIC` time, its call
/// chain (the leaf, where the thread was running, first).
public struct PerfSample: Equatable, Sendable {
    public var pid: Int
    public var tid: Int
    /// Nanoseconds on `CLOCK_MONOTONIC` (perf records with `-k CLOCK_MONOTONIC`), the phases' clock.
    public var nanoseconds: UInt64
    /// Leaf first.
    public var frames: [PerfFrame]
}
